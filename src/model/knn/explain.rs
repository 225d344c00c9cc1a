//! k-NN votes taken apart by term (see [`crate::model::explain`]), and what the model keeps, for
//! inspecting and exporting it.

use std::collections::HashMap;

use super::{Knn, Scratch, Similarity};
use crate::model::explain::Attribution;
use crate::vectorize::Weighting;

impl Knn {
    /// Class `class`'s vote for one weighted row, taken apart: each neighbour of the class
    /// shares its similarity between the terms it has in common with the row, in proportion to
    /// each term's product (the row's value times the neighbour's weight). With no neighbour at
    /// all, the vote is the class's share of the training documents, all of it bias.
    pub fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        let mut scores = vec![0.0; self.classes()];
        self.scores(indices, values, &mut scores);
        let mut scratch = Scratch::default();
        self.accumulate(&mut scratch, indices, values);
        self.nearest(&mut scratch);
        let s = &self.stored;
        let of_class: Vec<(u32, f64)> = (scratch.neighbours.iter())
            .filter(|&&(_, row)| s.labels[row as usize] as usize == class)
            .map(|&(similarity, row)| (row, f64::from(similarity)))
            .collect();
        let place: HashMap<u32, usize> = (of_class.iter().enumerate())
            .map(|(at, &(row, _))| (row, at))
            .collect();
        let products = self.products(indices, values, &place);
        let mut sums = vec![0.0; of_class.len()];
        for &(_, at, product) in &products {
            sums[at] += product;
        }
        let mut terms: Vec<(u32, f64)> = (indices.iter())
            .filter(|&&j| (j as usize) < self.features())
            .map(|&j| (j, 0.0))
            .collect();
        for (term, at, product) in products {
            terms[term].1 += of_class[at].1 * product / sums[at];
        }
        let bias = if scratch.neighbours.is_empty() {
            scores[class]
        } else {
            0.0
        };
        Attribution {
            score: scores[class],
            bias,
            terms,
        }
    }

    /// `(term, neighbour, product)` for every positive product of a known term of the row with a
    /// neighbour placed in `place`: the parts of the neighbours' similarities, as
    /// [`accumulate`](Knn::accumulate) adds them. `term` counts the row's known terms.
    fn products(
        &self,
        indices: &[u32],
        values: &[f64],
        place: &HashMap<u32, usize>,
    ) -> Vec<(usize, usize, f64)> {
        let (s, weights) = (&self.stored, self.weights());
        let bm25 = matches!(s.params.similarity, Similarity::Bm25 { .. });
        let known = indices.iter().zip(values).filter_map(|(&j, &value)| {
            let span = s.starts.get(j as usize..j as usize + 2)?;
            Some((span[0] as usize..span[1] as usize, value))
        });
        let mut products = Vec::new();
        for (term, (span, value)) in known.enumerate() {
            let query = if bm25 { 1.0 } else { value as f32 };
            for (&row, &weight) in s.rows[span.clone()].iter().zip(&weights[span]) {
                let product = query * weight;
                if let (true, Some(&at)) = (product > 0.0, place.get(&row)) {
                    products.push((term, at, f64::from(product)));
                }
            }
        }
        products
    }

    /// The vectorizer's weighting, which cosine similarity applies to the training counts.
    pub fn weighting(&self) -> Weighting {
        self.stored.weighting
    }

    /// Each training document's class and its raw counts as `(feature, count)`, in training
    /// order.
    pub fn documents(&self) -> Vec<(u32, Vec<(u32, f32)>)> {
        let s = &self.stored;
        let mut documents: Vec<(u32, Vec<(u32, f32)>)> =
            s.labels.iter().map(|&c| (c, Vec::new())).collect();
        for (j, pair) in s.starts.windows(2).enumerate() {
            let span = pair[0] as usize..pair[1] as usize;
            for (&row, &count) in s.rows[span.clone()].iter().zip(&s.counts[span]) {
                documents[row as usize].1.push((j as u32, count));
            }
        }
        documents
    }

    /// Each class's summed weight of every feature over its training documents, under the
    /// similarity (the unit-length rows cosine compares, or BM25's term weights), as
    /// `(feature, weight)` in feature order: the class's centroid, up to a factor.
    pub(crate) fn class_weights(&self) -> Vec<Vec<(u32, f64)>> {
        let (s, weights) = (&self.stored, self.weights());
        let mut sums = vec![Vec::new(); self.classes()];
        for (j, pair) in s.starts.windows(2).enumerate() {
            let span = pair[0] as usize..pair[1] as usize;
            for (&row, &weight) in s.rows[span.clone()].iter().zip(&weights[span]) {
                let class: &mut Vec<(u32, f64)> = &mut sums[s.labels[row as usize] as usize];
                match class.last_mut() {
                    Some(last) if last.0 == j as u32 => last.1 += f64::from(weight),
                    _ => class.push((j as u32, f64::from(weight))),
                }
            }
        }
        sums
    }
}
