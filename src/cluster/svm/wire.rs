//! The bytes of the SVM's rounds: a small postcard header, then a block of weights in which only
//! the classes still running and the columns with a non-zero value are sent.
//!
//! A message is the header's length (4 bytes, little-endian), the header, then a bitmap of the
//! columns sent (one bit per column of the block, in column order) and their values as `f32`
//! (little-endian, each column's running classes in class order). Both ends know the block's
//! columns and the running classes, so neither is sent.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};

/// Encodes `header` and rows `rows` of `table` (feature-major over `k` classes), the classes
/// `running` only, leaving out rows whose running classes are all zero.
pub fn encode<H: Serialize>(
    header: &H,
    table: &[f32],
    k: usize,
    rows: &[u32],
    running: &[usize],
) -> Result<Vec<u8>> {
    let header = postcard::to_allocvec(header)
        .map_err(|e| Error::Config(format!("cannot encode a round: {e}")))?;
    let mut bitmap = vec![0u8; rows.len().div_ceil(8)];
    let mut values = Vec::new();
    for (position, &row) in rows.iter().enumerate() {
        let row = row as usize;
        let slots = &table[row * k..(row + 1) * k];
        if running.iter().any(|&c| slots[c] != 0.0) {
            bitmap[position / 8] |= 1 << (position % 8);
            running
                .iter()
                .for_each(|&c| values.extend_from_slice(&slots[c].to_le_bytes()));
        }
    }
    let mut bytes = Vec::with_capacity(4 + header.len() + bitmap.len() + values.len());
    bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&bitmap);
    bytes.extend_from_slice(&values);
    Ok(bytes)
}

/// Decodes a message of [`encode`]: returns its header, and adds its values to rows `rows` of
/// `table` (the rows it was encoded from, in the same order, as the receiver numbers them).
pub fn decode_into<H: DeserializeOwned>(
    bytes: &[u8],
    table: &mut [f32],
    k: usize,
    rows: &[u32],
    running: &[usize],
) -> Result<H> {
    let broken = || Error::Config("a round's message is cut short or malformed".into());
    let (length, rest) = bytes.split_first_chunk::<4>().ok_or_else(broken)?;
    let length = u32::from_le_bytes(*length) as usize;
    let (header, rest) = rest.split_at_checked(length).ok_or_else(broken)?;
    let header = postcard::from_bytes(header).map_err(|_| broken())?;
    let (bitmap, values) = rest
        .split_at_checked(rows.len().div_ceil(8))
        .ok_or_else(broken)?;
    let mut values = values.chunks_exact(4).map(|v| {
        let bytes: [u8; 4] = v.try_into().unwrap_or_default();
        f32::from_le_bytes(bytes)
    });
    for (position, &row) in rows.iter().enumerate() {
        if bitmap[position / 8] & (1 << (position % 8)) == 0 {
            continue;
        }
        let row = row as usize;
        let slots = table.get_mut(row * k..(row + 1) * k).ok_or_else(broken)?;
        for &c in running {
            slots[c] += values.next().ok_or_else(broken)?;
        }
    }
    match values.next() {
        None => Ok(header),
        Some(_) => Err(broken()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_running_classes_of_non_zero_rows_are_sent_and_added_where_the_receiver_says() {
        // Three rows of three classes; class 1 has stopped, row 1 is zero in the others.
        let table = [1.0, 9.0, 2.0, 0.0, 5.0, 0.0, 3.0, 0.0, 4.0];
        let bytes = encode(&7u8, &table, 3, &[0, 1, 2], &[0, 2]).unwrap();
        assert_eq!(bytes.len(), 4 + 1 + 1 + 4 * 4);
        let mut into = vec![0.5f32; 5 * 3];
        let header: u8 = decode_into(&bytes, &mut into, 3, &[4, 0, 2], &[0, 2]).unwrap();
        assert_eq!(header, 7);
        assert_eq!(&into[12..15], &[1.5, 0.5, 2.5]);
        assert_eq!(&into[0..3], &[0.5; 3]);
        assert_eq!(&into[6..9], &[3.5, 0.5, 4.5]);
        let short = &bytes[..bytes.len() - 1];
        assert!(decode_into::<u8>(short, &mut into, 3, &[0, 1, 2], &[0, 2]).is_err());
    }
}
