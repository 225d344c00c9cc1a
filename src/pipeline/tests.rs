use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;

fn staged(workers: Vec<usize>) -> PipelineConfig {
    PipelineConfig {
        layout: Layout::Staged { workers },
        batch_size: 3,
        ..PipelineConfig::default()
    }
}

fn double() -> Stage<'static, u64> {
    Stage::new("double", || {
        Box::new(|batch: &mut Vec<u64>| {
            batch.iter_mut().for_each(|x| *x *= 2);
            Ok(batch.len() as u64)
        })
    })
}

fn collect(config: &PipelineConfig, stages: Vec<Stage<'static, u64>>) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    run(config, 0..1000u64, stages, |batch| {
        out.extend(batch);
        Ok(())
    })?;
    Ok(out)
}

#[test]
fn output_keeps_source_order_with_many_workers() {
    let expected: Vec<u64> = (0..1000).map(|x| x * 4).collect();
    for config in [
        staged(vec![4, 3]),
        staged(vec![1]),
        PipelineConfig::with_threads(true, 3),
    ] {
        assert_eq!(
            collect(&config, vec![double(), double()]).unwrap(),
            expected
        );
    }
}

#[test]
fn stats_count_every_item_once_per_stage() {
    let stats = run(&staged(vec![2]), 0..10u64, vec![double()], |_| Ok(())).unwrap();
    let names: Vec<_> = stats.iter().map(|s| s.name).collect();
    assert_eq!(names, ["source", "double"]);
    assert_eq!(
        (stats[1].items, stats[1].batches, stats[1].workers),
        (10, 4, 2)
    );
}

fn boom() -> Stage<'static, u64> {
    Stage::new("boom", || {
        Box::new(|batch: &mut Vec<u64>| {
            if batch.contains(&1000) {
                panic!("bad item");
            }
            Ok(0)
        })
    })
}

#[test]
fn a_panicking_stage_returns_an_error_instead_of_hanging() {
    for config in [staged(vec![2]), PipelineConfig::with_threads(true, 2)] {
        let error = collect(&config, vec![double(), boom()]).unwrap_err();
        assert!(
            matches!(&error, Error::Stage { message, .. } if message.contains("bad item")),
            "{error}"
        );
    }
}

#[test]
fn a_stage_error_and_a_sink_error_stop_the_run() {
    let failing = Stage::new("fail", || {
        Box::new(|_: &mut Vec<u64>| Err("no good".to_string()))
    });
    let error = collect(&staged(vec![2]), vec![failing]).unwrap_err();
    assert_eq!(error.to_string(), "pipeline stage 'fail' failed: no good");
    let sink_error = run(&staged(vec![2]), 0..1000u64, vec![double()], |_| {
        Err(Error::Config("sink says stop".into()))
    });
    assert!(sink_error.is_err());
}

#[test]
fn a_panicking_source_is_an_error() {
    let source = (0..100u64).map(|x| if x == 50 { panic!("source broke") } else { x });
    let result = run(&staged(vec![1]), source, vec![double()], |_| Ok(()));
    assert!(matches!(result, Err(Error::Stage { stage, .. }) if stage == "source"));
}

#[test]
fn batches_in_flight_are_bounded() {
    static ALIVE: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);
    let config = PipelineConfig {
        max_in_flight: Some(3),
        ..staged(vec![4])
    };
    let source = (0..3000u64).inspect(|_| {
        let alive = ALIVE.fetch_add(1, Ordering::SeqCst) + 1;
        PEAK.fetch_max(alive, Ordering::SeqCst);
    });
    run(&config, source, vec![double()], |batch| {
        ALIVE.fetch_sub(batch.len(), Ordering::SeqCst);
        Ok(())
    })
    .unwrap();
    // Three batches of three in flight, plus the one the source is filling.
    assert!(
        PEAK.load(Ordering::SeqCst) <= 4 * 3,
        "peak {}",
        PEAK.load(Ordering::SeqCst)
    );
}

#[test]
fn invalid_layouts_are_rejected() {
    assert!(collect(&staged(vec![]), vec![double()]).is_err());
    assert!(collect(&PipelineConfig::with_threads(true, 0), vec![double()]).is_err());
}

#[test]
fn a_channel_source_sends_a_lone_item_without_waiting_for_a_full_batch() {
    // The sink answers each result with the next item, as a user at a terminal would: if the
    // source waited to fill a batch of 3, the run would never finish.
    let (done_tx, done_rx) = bounded(1);
    std::thread::spawn(move || {
        let (tx, rx) = bounded(4);
        let _ = tx.send(Some(1u64));
        let mut seen = Vec::new();
        let result = run_channel(&staged(vec![1]), rx, vec![double()], |batch| {
            seen.extend(batch);
            let next = if seen.len() < 3 {
                Some(seen.len() as u64 + 1)
            } else {
                None
            };
            let _ = tx.send(next);
            Ok(())
        });
        let _ = done_tx.send((result.is_ok(), seen));
    });
    let finished = done_rx.recv_timeout(std::time::Duration::from_secs(10));
    assert_eq!(finished, Ok((true, vec![2, 4, 6])));
}

#[test]
fn a_channel_source_forms_full_batches_from_fast_input() {
    let (tx, rx) = bounded(16);
    (0..10u64).for_each(|i| tx.send(Some(i)).unwrap());
    tx.send(None).unwrap();
    let mut sizes = Vec::new();
    run_channel(&staged(vec![1]), rx, vec![double()], |batch| {
        sizes.push(batch.len());
        Ok(())
    })
    .unwrap();
    assert_eq!(sizes, [3, 3, 3, 1]);
}
