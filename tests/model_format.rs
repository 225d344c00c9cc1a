//! Models of formats 4, 6, 7, 8 and of today's format 9, committed, load and classify as they
//! did when they were written: any later change of the format must keep them readable. Each fixture was
//! trained on `corpora/` (the commands are in tests/README.md) and the figures below are what
//! `bowline classify --format jsonl --top 4 --explain 2` printed for it then.

use bowline::model::Kind;
use bowline::TextClassifier;

/// The probes, one per class the fixtures know.
const PROBES: [&str; 3] = [
    "The telescope found a new planet",
    "Simmer the sauce with salt",
    "the striker scored a goal",
];

/// What a fixture printed for one probe: the label, every class's value in rank order, and the
/// explanation's score and two top terms.
struct Then {
    label: &'static str,
    ranked: [(&'static str, f64); 4],
    score: f64,
    terms: [(&'static str, f64); 2],
}

fn check(path: &str, kind: Kind, then: [Then; 3]) {
    let model = TextClassifier::load(path).unwrap();
    assert_eq!(model.model().classifier.kind(), kind);
    assert_eq!(model.labels(), ["computing", "cooking", "space", "sports"]);
    assert_eq!(model.model().info.docs_per_class, [15, 16, 15, 15]);
    for (text, then) in PROBES.iter().zip(then) {
        let prediction = model.predict(text).unwrap();
        assert_eq!(prediction.label, then.label, "{path}: {text}");
        for ((label, value), (was, was_value)) in prediction.ranked.iter().zip(then.ranked) {
            assert_eq!(label, was, "{path}: {text}");
            assert!((value - was_value).abs() < 1e-9, "{path}: {text}: {label}");
        }
        let explanation = model.explain(text, 2).unwrap();
        assert!(
            (explanation.score - then.score).abs() < 1e-9,
            "{path}: {text}"
        );
        for (term, (was, contribution)) in explanation.terms.iter().zip(then.terms) {
            assert_eq!(term.term, was, "{path}: {text}");
            assert!(
                (term.contribution - contribution).abs() < 1e-9,
                "{path}: {text}"
            );
        }
    }
}

/// The fixtures are of format 4 (their header says so), whatever format this bowline writes.
#[test]
fn the_fixtures_are_of_format_4() {
    for name in ["mnb-tuned", "svm", "knn-chars"] {
        let bytes = std::fs::read(format!("tests/fixtures/model-v4-{name}.bowline")).unwrap();
        assert_eq!(bytes[8..12], 4u32.to_le_bytes(), "{name}");
    }
}

/// Multinomial NB chosen by `train --tune`: words alone, unstemmed, raw counts, alpha 0.03,
/// with the tuning's record in the file.
#[test]
fn a_tuned_multinomial_model_of_format_4_loads_and_classifies_as_it_did() {
    let path = "tests/fixtures/model-v4-mnb-tuned.bowline";
    let model = TextClassifier::load(path).unwrap();
    let tuned = model.model().info.tuned.as_ref().unwrap();
    let flags = "--stop-words none --stem none --ngrams 1..1 --min-df 1 --tf count --idf smooth \
                 --alpha 0.03";
    assert_eq!((tuned.flags.as_str(), tuned.folds), (flags, 3));
    // Format 4 predates the record of a configuration kept over a better trial.
    assert_eq!(tuned.best_not_taken, None);
    let then = [
        Then {
            label: "space",
            ranked: [
                ("space", 0.9661196303060915),
                ("sports", 0.012337243505345433),
                ("computing", 0.011248219284697342),
                ("cooking", 0.010294906903865874),
            ],
            score: 3.338845314928596,
            terms: [
                ("planet", 1.1983378842106478),
                ("telescope", 1.0979761637662089),
            ],
        },
        Then {
            label: "cooking",
            ranked: [
                ("cooking", 0.9823937544459861),
                ("sports", 0.010350021733261243),
                ("computing", 0.0037176186649737586),
                ("space", 0.0035386051557786333),
            ],
            score: 3.9390430087634662,
            terms: [("sauce", 1.1363252701939524), ("salt", 0.9863889009200055)],
        },
        Then {
            label: "sports",
            ranked: [
                ("sports", 0.9449444291665656),
                ("computing", 0.018993381128386277),
                ("space", 0.018260348831330743),
                ("cooking", 0.01780184087371803),
            ],
            score: 2.9563134886886626,
            terms: [
                ("scored", 1.527879000737393),
                ("striker", 1.3811481804376529),
            ],
        },
    ];
    check(path, Kind::Mnb, then);
}

/// A linear SVM on words and word pairs seen in two documents or more, with its reservoir of
/// training rows for updates.
#[test]
fn an_svm_of_format_4_loads_and_classifies_as_it_did() {
    let path = "tests/fixtures/model-v4-svm.bowline";
    let model = TextClassifier::load(path).unwrap();
    let svm = model.model().classifier.svm().unwrap();
    assert_eq!(svm.reservoir().rows().len(), 61);
    let then = [
        Then {
            label: "space",
            ranked: [
                ("space", 0.35834569748541656),
                ("cooking", 0.2223886022397185),
                ("computing", 0.22156078915829075),
                ("sports", 0.19770491111657407),
            ],
            score: -0.15259746455833462,
            terms: [
                ("planet", 0.5891886222664123),
                ("the", -0.13077666820388684),
            ],
        },
        Then {
            label: "cooking",
            ranked: [
                ("cooking", 0.815267023662658),
                ("computing", 0.07223407674405029),
                ("sports", 0.05745274111392311),
                ("space", 0.05504615847936858),
            ],
            score: 1.3768206348208727,
            terms: [("sauc", 0.5952369728537148), ("salt", 0.5822060169972204)],
        },
        Then {
            label: "sports",
            ranked: [
                ("sports", 0.41008050290118037),
                ("cooking", 0.24466757249371152),
                ("space", 0.1923176482985542),
                ("computing", 0.15293427630655398),
            ],
            score: 0.015418978932062205,
            terms: [("score", 0.5371607945516529), ("the", 0.17745264715590822)],
        },
    ];
    check(path, Kind::Svm, then);
}

/// k-NN on character trigrams alone (the analysis format 4 added), seen in five documents or
/// more.
#[test]
fn a_knn_model_on_character_ngrams_of_format_4_loads_and_classifies_as_it_did() {
    let path = "tests/fixtures/model-v4-knn-chars.bowline";
    let model = TextClassifier::load(path).unwrap();
    let analysis = model.model().vectorizer.analyzer();
    assert_eq!(
        (analysis.char_ngrams, analysis.words),
        (Some((3, 3)), false)
    );
    let then = [
        Then {
            label: "space",
            ranked: [
                ("space", 0.4431910789252201),
                ("sports", 0.22669721564544662),
                ("computing", 0.17748104380569327),
                ("cooking", 0.15263066162364014),
            ],
            score: 2.3051013723015785,
            terms: [("pla", 0.32605700234600815), (" ne", 0.2674506130572092)],
        },
        Then {
            label: "cooking",
            ranked: [
                ("cooking", 0.40919211831831426),
                ("sports", 0.26926519749326583),
                ("space", 0.24731428115135298),
                ("computing", 0.07422840303706695),
            ],
            score: 2.2782481759786606,
            terms: [(" sa", 0.47145100864876055), ("wit", 0.3342341532425542)],
        },
        Then {
            label: "sports",
            ranked: [
                ("sports", 0.4204924728244057),
                ("space", 0.23522752796531818),
                ("computing", 0.1735582384802885),
                ("cooking", 0.1707217607299877),
            ],
            score: 2.479902282357216,
            terms: [("cor", 0.25645183390338455), ("str", 0.24259306131195568)],
        },
    ];
    check(path, Kind::Knn, then);
}

/// Complement NB over unigrams and bigrams (`bowline train corpora --classifier cnb --ngrams
/// 1..2`), in format 6: its arrays, the scorer's among them, are used in place. It classifies and
/// explains exactly, to the bit, as a model of format 4 trained the same way did.
#[test]
fn a_complement_model_of_format_6_classifies_as_format_4_did() {
    let path = "tests/fixtures/model-v6-cnb-bigrams.bowline";
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes[8..12], 6u32.to_le_bytes());
    let model = TextClassifier::load(path).unwrap();
    assert_eq!(model.model().classifier.kind(), Kind::Cnb);
    assert_eq!(model.model().info.docs_per_class, [15, 16, 15, 15]);
    let then: [(&str, [f64; 4], f64); 3] = [
        (
            "space",
            [
                0.250053878941762,
                0.2499834718982774,
                0.24998240362849714,
                0.24998024553146345,
            ],
            0.00021550029810102735,
        ),
        (
            "cooking",
            [
                0.25007023793999444,
                0.24997883309723753,
                0.24997566912510988,
                0.249975259837658,
            ],
            0.00028092546972950097,
        ),
        (
            "sports",
            [
                0.2500549595285531,
                0.24998251115019107,
                0.2499821769724106,
                0.24998035234884528,
            ],
            0.00021982201276944278,
        ),
    ];
    for (text, (label, ranked, score)) in PROBES.iter().zip(then) {
        let prediction = model.predict(text).unwrap();
        assert_eq!(prediction.label, label, "{text}");
        let values: Vec<f64> = prediction.ranked.iter().map(|(_, p)| *p).collect();
        assert_eq!(values, ranked, "{text}");
        assert_eq!(model.explain(text, 2).unwrap().score, score, "{text}");
    }
}

/// An SVM and a multinomial NB whose terms are hashed to 2^10 columns, in format 7: trained on four
/// lines (`printf 'space\tthe rocket reached orbit around the moon\nspace\ta comet passed the moon
/// and the stars\nfood\tbake the bread in a hot oven\nfood\ta soup of lentils with fresh
/// bread\n'`) by `bowline train four.tsv -o M --hash-bits 10` (and `--classifier mnb`). They
/// keep their hashing, and give three probes the label, scores and explanations they gave when
/// written (`classify --format jsonl --explain 2`). With 2^10 columns "striker score" falls in
/// the column of "the moon", which decides the third probe: a collision, named as such.
#[test]
fn hashed_models_of_format_7_load_and_classify_as_they_did() {
    let probes = [
        "a rocket to the moon",
        "fresh bread from the oven",
        "the striker scored a goal",
    ];
    type Then = (&'static str, f64, [(&'static str, f64); 2]);
    let svm: [Then; 3] = [
        (
            "space",
            0.5719675275902083,
            [
                ("#121=the moon", 0.178299699026088),
                ("#414=moon", 0.178299699026088),
            ],
        ),
        (
            "food",
            0.4828955239827649,
            [
                ("#495=bread", 0.15774786286679052),
                ("#605=oven", 0.13443241028213704),
            ],
        ),
        (
            "food",
            0.13471044469349297,
            [
                ("#121=striker score", 0.286163361399345),
                ("#158=the", -0.20919231451446618),
            ],
        ),
    ];
    let mnb: [Then; 3] = [
        (
            "space",
            3.1246942413617447,
            [
                ("#923=rocket", 1.045255035580321),
                ("#121=the moon", 0.931448895353462),
            ],
        ),
        (
            "food",
            3.1990449759852115,
            [
                ("#605=oven", 0.8721485386126544),
                ("#38=fresh bread", 0.8652210053729509),
            ],
        ),
        (
            "space",
            1.8424751577279812,
            [
                ("#121=striker score", 1.4949354840304778),
                ("#158=the", 0.34753967369750355),
            ],
        ),
    ];
    for (name, signed, then) in [("svm", true, svm), ("mnb", false, mnb)] {
        let path = format!("tests/fixtures/model-v7-{name}-hashed.bowline");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes[8..12], 7u32.to_le_bytes(), "{path}");
        let model = TextClassifier::load(&path).unwrap();
        let hashing = model.model().vectorizer.hashing().unwrap();
        assert_eq!((hashing.bits(), hashing.signed()), (10, signed), "{path}");
        assert!(model.model().vectorizer.terms().is_empty(), "{path}");
        for (text, (label, score, terms)) in probes.iter().zip(then) {
            let explanation = model.explain(text, 2).unwrap();
            assert_eq!(model.predict(text).unwrap().label, label, "{path}: {text}");
            assert_eq!(explanation.label, label, "{path}: {text}");
            assert!((explanation.score - score).abs() < 1e-9, "{path}: {text}");
            for (term, (was, contribution)) in explanation.terms.iter().zip(terms) {
                assert_eq!(term.term, was, "{path}: {text}");
                assert!(
                    (term.contribution - contribution).abs() < 1e-9,
                    "{path}: {text}"
                );
            }
        }
    }
}

/// What the default SVM trained on the four lines above gives three probes: the label, its
/// score, and the term that contributes most to it with its contribution.
const PAIRS_SVM_THEN: [(&str, &str, f64, &str, f64); 3] = [
    (
        "a rocket to the moon",
        "space",
        0.6153574147627484,
        "moon",
        0.24555203869504968,
    ),
    (
        "fresh bread from the oven",
        "food",
        0.5307930399155888,
        "bread",
        0.21877059098971308,
    ),
    (
        "the striker scored a goal",
        "space",
        0.3430422341471586,
        "the",
        0.4070395231246948,
    ),
];

/// Loads the fixture at `path`, checks its format, and that the probes get what the default SVM
/// gave them.
fn load_pairs_svm(path: &str, format: u32) -> TextClassifier {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes[8..12], format.to_le_bytes());
    let model = TextClassifier::load(path).unwrap();
    assert_eq!(model.model().vectorizer.config().ngram_weight, 0.5);
    for (text, label, score, term, contribution) in PAIRS_SVM_THEN {
        let explanation = model.explain(text, 2).unwrap();
        assert_eq!(model.predict(text).unwrap().label, label, "{text}");
        assert_eq!(explanation.label, label, "{text}");
        assert!((explanation.score - score).abs() < 1e-9, "{text}");
        assert_eq!(explanation.terms[0].term, term, "{text}");
        assert!(
            (explanation.terms[0].contribution - contribution).abs() < 1e-9,
            "{text}"
        );
    }
    model
}

/// The default SVM of format 8, which weighed word pairs half their TF-IDF: trained on the four
/// lines above by `bowline train four.tsv -o M`. It keeps its weight and gives the probes the
/// labels, scores and explanations it gave when written.
#[test]
fn an_svm_weighing_word_pairs_of_format_8_loads_and_classifies_as_it_did() {
    let model = load_pairs_svm("tests/fixtures/model-v8-svm-pairs.bowline", 8);
    assert_eq!(model.model().info.tuned, None);
}

/// A tuned SVM of format 9, by `bowline train four.tsv --tune -o M`: the tuning kept the
/// defaults although a trial scored higher, and the record says so. Being the defaults of then,
/// it gives the probes what the format 8 SVM gives them.
#[test]
fn a_tuned_svm_of_format_9_keeps_why_its_configuration_was_chosen() {
    let model = load_pairs_svm("tests/fixtures/model-v9-svm-tuned.bowline", 9);
    let tuned = model.model().info.tuned.as_ref().unwrap();
    let flags = "--stop-words none --stem english --ngrams 1..2 --min-df 1 --tf sublinear \
                 --idf smooth --ngram-weight 0.5 --c 3";
    assert_eq!(
        (tuned.flags.as_str(), tuned.folds, tuned.trials),
        (flags, 3, 405)
    );
    assert!(
        (tuned.accuracy - 5.0 / 6.0).abs() < 1e-12,
        "{}",
        tuned.accuracy
    );
    assert_eq!(tuned.best_not_taken, Some(1.0));
}

/// A bit flipped anywhere in a model file, of any kind, is found on loading: every byte is under
/// one of the two CRC-32s or a check of the header. 1,000 random offsets per kind, from a fixed
/// seed; a flip that loaded would have to leave every prediction as it was.
#[test]
fn a_bit_flipped_anywhere_in_a_model_is_found_on_loading() {
    use bowline::corpus::ReadOptions;
    use bowline::model::Model;
    use bowline::{Reading, Source};

    let kinds = [Kind::Mnb, Kind::Cnb, Kind::Bnb, Kind::Svm, Kind::Knn];
    for (number, kind) in kinds.into_iter().enumerate() {
        let source = Source::open("corpora".as_ref(), &ReadOptions::default()).unwrap();
        let fitted = TextClassifier::builder(kind)
            .fit_source(source, &mut Reading::default())
            .unwrap();
        let bytes = fitted.classifier.model().to_bytes().unwrap();
        let ranked = |model: &TextClassifier| -> Vec<Vec<(String, f64)>> {
            let predictions = PROBES.iter().map(|text| model.predict(text).unwrap());
            predictions.map(|p| p.ranked).collect()
        };
        let expected = ranked(&fitted.classifier);
        let mut state = 0x9E37_79B9_7F4A_7C15_u64 + number as u64;
        let (mut found, mut harmless) = (0, 0);
        for _ in 0..1000 {
            // xorshift64: reproducible offsets without a dependency.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut flipped = bytes.clone();
            flipped[(state % bytes.len() as u64) as usize] ^= 1 << (state >> 61);
            match Model::from_bytes(&flipped, std::path::Path::new("flipped.model")) {
                Err(_) => found += 1,
                Ok(model) => {
                    let loaded = TextClassifier::from_model(model).unwrap();
                    assert_eq!(ranked(&loaded), expected, "{kind:?}");
                    harmless += 1;
                }
            }
        }
        assert_eq!(
            (found, harmless),
            (1000, 0),
            "{kind:?}, a model of {} bytes",
            bytes.len()
        );
    }
}

/// Asserts that the model file at `path` is of format `format` and gives each probe of `then`
/// its label and top score (within 1e-12).
fn gives_what_it_gave(path: &str, format: u32, then: [(&str, &str, f64); 3]) {
    assert_eq!(std::fs::read(path).unwrap()[8..12], format.to_le_bytes());
    let model = TextClassifier::load(path).unwrap();
    for (text, label, score) in then {
        let prediction = model.predict(text).unwrap();
        assert_eq!(prediction.label, label, "{text}");
        assert!((prediction.ranked[0].1 - score).abs() < 1e-12, "{text}");
    }
}

/// Runs `bowline update` on a copy of the model file at `path` with the TSV `lines`; returns
/// the folder (kept while the copy is used), the copy's path and the command's output.
fn update_a_copy(
    path: &str,
    lines: &str,
) -> (tempfile::TempDir, std::path::PathBuf, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("m.model");
    std::fs::copy(path, &copy).unwrap();
    std::fs::write(dir.path().join("more.tsv"), lines).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_bowline"))
        .arg("update")
        .arg(&copy)
        .arg(dir.path().join("more.tsv"))
        .output()
        .unwrap();
    (dir, copy, output)
}

/// A kernel SVM of format 11, by `bowline train four.tsv --kernel rbf -o M` on the four lines
/// above, written before kernel models kept their support vectors' classes. It still gives the
/// probes the labels and scores it gave when written, and `update` refuses it, naming the file
/// and the format.
#[test]
fn a_kernel_svm_of_format_11_classifies_as_it_did_and_is_refused_by_update() {
    let path = "tests/fixtures/model-v11-kernel-rbf.bowline";
    gives_what_it_gave(
        path,
        11,
        [
            ("a rocket to the moon", "space", 0.6780370022448372),
            ("fresh bread from the oven", "food", 0.6177742847703236),
            ("the striker scored a goal", "space", 0.5910336941162793),
        ],
    );
    let (_dir, copy, output) = update_a_copy(path, "food\tlentil soup\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let refusal = format!(
        "bowline: {}: this kernel SVM was written by a bowline that did not keep its support \
         vectors' classes (model format 11), so it cannot be updated",
        copy.display()
    );
    assert!(stderr.contains(&refusal), "{stderr}");
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(path).unwrap());
}

/// A linear SVM over random Fourier features of format 12, by `bowline train four.tsv --approx
/// rff --components 8 -o M` on the four lines above, whose map drew its weights by Box–Muller.
/// A map fitted now draws them by the ziggurat (format 15); this one still draws them as it did,
/// so it gives three probes the labels and scores it gave when written (`classify --format
/// jsonl`). `update` continues it with the same map, and writes it in format 15.
#[test]
fn random_fourier_features_of_format_12_classify_as_they_did_and_update() {
    let path = "tests/fixtures/model-v12-rff.bowline";
    gives_what_it_gave(
        path,
        12,
        [
            ("a rocket to the moon", "food", 0.5735880450872243),
            ("fresh bread from the oven", "food", 0.6061691900218582),
            ("the striker scored a goal", "space", 0.7592153303965519),
        ],
    );
    let (_dir, copy, output) = update_a_copy(path, "space\ta rocket to the moon\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let bytes = std::fs::read(&copy).unwrap();
    assert_eq!(
        bytes[8..12],
        bowline::model::FOURIER_FORMAT_VERSION.to_le_bytes()
    );
    let updated = TextClassifier::load(&copy).unwrap();
    assert_eq!(
        updated.predict("a rocket to the moon").unwrap().label,
        "space"
    );
}
