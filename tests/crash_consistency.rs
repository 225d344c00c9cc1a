//! Crash consistency: `update`, `learn` (between and during its checkpoints) and `train -o
//! EXISTING` are killed with SIGKILL at pseudo-random moments, at least 50 times each. After every
//! kill the model file loads and equals either the model from before the run or one the run set
//! out to write, and once the next writer has taken the model's lock no temporary file is left.
//! Each test prints where its kills landed (`--nocapture` shows it), and fails unless at least a
//! tenth of them landed while a model was being written.
//!
//! A SIGKILL can still leave a temporary file: the write protocol names the finished file an
//! instant before renaming it over the model (see `bowline::io::Output`), and no code runs on a
//! SIGKILL to remove it. So the folder is looked at twice after each kill: as the kill left it,
//! where a leftover is counted and printed, and after taking the model's lock as every writer
//! does first, which removes leftovers, where nothing but the model and its lock may be left.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bowline::model::{Model, ModelLock};

/// Kills each test must land; runs that end before their kill do not count.
const KILLS: usize = 50;
/// The signal number of SIGKILL.
const SIGKILL: i32 = 9;
/// `learn` saves a checkpoint after every this many documents of its stream of 1,000.
const CHECKPOINT_EVERY: usize = 125;

/// A fixed-seed xorshift generator: the corpora and the kill times are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `docs` lines of `label<TAB>text` in four classes, each of 40 words drawn from 20,000 made-up
/// ones. 2,000 of them make a model of 3 MB, which takes about a tenth of a second to train, and
/// a twentieth of that to write.
fn corpus(docs: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let words: Vec<String> = (0..20_000)
        .map(|_| {
            let len = 4 + rng.below(6);
            (0..len)
                .map(|_| (b'a' + rng.below(26) as u8) as char)
                .collect()
        })
        .collect();
    let mut rng = Rng(seed);
    (0..docs)
        .map(|doc| {
            let text: Vec<&str> = (0..40)
                .map(|_| words[rng.below(words.len() as u64) as usize].as_str())
                .collect();
            format!("c{}\t{}\n", doc % 4, text.join(" "))
        })
        .collect()
}

/// A folder with the corpora in `in/` and the model, with its lock, alone in `out/`: any other
/// file in `out/` is a temporary file.
struct Setup {
    _dir: tempfile::TempDir,
    input: PathBuf,
    out: PathBuf,
    model: PathBuf,
    /// The model before every run: multinomial NB trained on `in/a.tsv`.
    old: Vec<u8>,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        // /proc shows open files by their real path.
        let root = dir.path().canonicalize().unwrap();
        let (input, out) = (root.join("in"), root.join("out"));
        std::fs::create_dir(&input).unwrap();
        std::fs::create_dir(&out).unwrap();
        for (name, docs, seed) in [
            ("a.tsv", 2000, 1),
            ("b.tsv", 2000, 2),
            ("stream.tsv", 1000, 3),
        ] {
            std::fs::write(input.join(name), corpus(docs, seed).concat()).unwrap();
        }
        let model = out.join("m.model");
        let a = input.join("a.tsv");
        let train = [
            "train",
            arg(&a),
            "-o",
            arg(&model),
            "--classifier",
            "mnb",
            "-q",
        ];
        let output = command(&train, None).output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let old = std::fs::read(&model).unwrap();
        Setup {
            _dir: dir,
            input,
            out,
            model,
            old,
        }
    }

    fn old_model(&self) -> Model {
        timeless(Model::from_bytes(&self.old, &self.model).unwrap())
    }

    /// Runs `args` to the end on the old model: the model it writes, and how the run went.
    fn uninterrupted(&self, args: &[&str], stdin: Option<&Path>) -> (Model, Profile) {
        std::fs::write(&self.model, &self.old).unwrap();
        let mut watch = Watch::start(args, stdin);
        while watch.look(self) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let profile = Profile {
            whole: watch.started.elapsed(),
            writes: watch.write_starts.len(),
            longest_write: watch.longest_write,
        };
        check_success(watch.child.wait_with_output().unwrap());
        assert!(
            profile.writes > 0,
            "{args:?} was never seen writing the model"
        );
        // Read into memory, not mapped: each kill starts by writing the old model over this
        // very file, which would change a mapped model under the test's feet.
        (timeless(Model::read(&self.model).unwrap()), profile)
    }

    /// Whether `file` in `out/` is neither the model nor its lock.
    fn is_stray(&self, file: &Path) -> bool {
        file != self.model && file.file_name() != Some(".m.model.lock".as_ref())
    }

    /// The files in `out/` other than the model and its lock.
    fn strays(&self) -> Vec<PathBuf> {
        std::fs::read_dir(&self.out)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|file| self.is_stray(file))
            .collect()
    }
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn command(args: &[&str], stdin: Option<&Path>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bowline"));
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .stdin(match stdin {
            Some(path) => Stdio::from(std::fs::File::open(path).unwrap()),
            None => Stdio::null(),
        });
    command
}

fn check_success(output: std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "bowline failed: {stderr}");
}

/// The model without the time it was written, the one thing two runs of a command write
/// differently.
fn timeless(mut model: Model) -> Model {
    model.info.written.clear();
    model
}

/// When a run is killed.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// This long after it starts.
    After(Duration),
    /// This long after it starts writing the model for the `nth` time (from 1).
    IntoWrite(usize, Duration),
}

impl Moment {
    /// Half the draws are uniform over a whole uninterrupted run. The other half aim at the
    /// writes, which take a twentieth of a `train` or an `update` (uniform draws alone would hit
    /// them two or three times in 50): a write drawn at random, and a moment uniform over twice
    /// the longest write from its start, through the rename and past it. The writes are found by
    /// watching the run, so the aim holds however busy the machine is.
    fn draw(rng: &mut Rng, profile: &Profile) -> Self {
        let at = rng.unit();
        // A reference run seen at no write (a busy machine can hide a short one) aims at none.
        if rng.next() & 1 == 0 || profile.writes == 0 {
            return Moment::After(profile.whole.mul_f64(at));
        }
        let nth = 1 + rng.below(profile.writes as u64) as usize;
        Moment::IntoWrite(nth, profile.longest_write.mul_f64(2.0 * at))
    }
}

/// How an uninterrupted run went.
struct Profile {
    whole: Duration,
    /// How many times it wrote the model.
    writes: usize,
    longest_write: Duration,
}

/// A running `bowline`, looked at every millisecond: when it has a model file open for writing.
struct Watch {
    child: Child,
    started: Instant,
    /// When the write in progress began.
    writing_since: Option<Instant>,
    /// When each write began.
    write_starts: Vec<Instant>,
    longest_write: Duration,
}

impl Watch {
    fn start(args: &[&str], stdin: Option<&Path>) -> Self {
        Watch {
            child: command(args, stdin).spawn().unwrap(),
            started: Instant::now(),
            writing_since: None,
            write_starts: Vec::new(),
            longest_write: Duration::ZERO,
        }
    }

    /// Looks at the run once; false when it has ended.
    fn look(&mut self, setup: &Setup) -> bool {
        if self.child.try_wait().unwrap().is_some() {
            self.end_write();
            return false;
        }
        match (is_writing(self.child.id(), setup), self.writing_since) {
            (true, None) => {
                let now = Instant::now();
                self.writing_since = Some(now);
                self.write_starts.push(now);
            }
            (false, Some(_)) => self.end_write(),
            _ => {}
        }
        true
    }

    fn end_write(&mut self) {
        if let Some(since) = self.writing_since.take() {
            self.longest_write = self.longest_write.max(since.elapsed());
        }
    }

    fn due(&self, moment: Moment) -> bool {
        match moment {
            Moment::After(at) => self.started.elapsed() >= at,
            Moment::IntoWrite(nth, after) => self
                .write_starts
                .get(nth - 1)
                .is_some_and(|start| start.elapsed() >= after),
        }
    }
}

/// Whether process `pid` has a file open in `out/` other than the model and its lock: a model
/// being written (an unnamed file shows as `out/#INODE (deleted)`).
fn is_writing(pid: u32, setup: &Setup) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|file| file.parent() == Some(&setup.out) && setup.is_stray(&file))
}

/// What one kill loop saw.
struct Tally {
    kills: usize,
    /// Runs that ended before their kill was due.
    finished_first: usize,
    /// Kills sent while the run had a model file open for writing.
    while_writing: usize,
    /// Kills after which a temporary file was left until the next writer took the lock.
    left_temporary: usize,
    /// How many kills left each accepted model.
    found: Vec<usize>,
    took: Duration,
}

/// Kills `args` (with `stdin`) at pseudo-random moments, after restoring the old model, until
/// [`KILLS`] kills have landed. After each, the model must be one of `accepted` (the old model
/// first); after a run that ended before its kill, the last of them.
fn kill_loop(
    setup: &Setup,
    args: &[&str],
    stdin: Option<&Path>,
    accepted: &[Model],
    profile: &Profile,
    seed: u64,
) -> Tally {
    let start = Instant::now();
    let mut rng = Rng(seed);
    let mut tally = Tally {
        kills: 0,
        finished_first: 0,
        while_writing: 0,
        left_temporary: 0,
        found: vec![0; accepted.len()],
        took: Duration::ZERO,
    };
    while tally.kills < KILLS {
        assert!(
            tally.finished_first < 4 * KILLS,
            "{args:?}: most runs end before their kill"
        );
        std::fs::write(&setup.model, &setup.old).unwrap();
        let moment = Moment::draw(&mut rng, profile);
        let killed = kill(args, stdin, moment, setup);
        let what = format!("{args:?} killed at {moment:?}");
        let (found, left_temporary) = check_after_kill(setup, accepted, &what);
        match killed {
            Some(writing) => {
                tally.kills += 1;
                tally.while_writing += usize::from(writing);
                tally.found[found] += 1;
                tally.left_temporary += usize::from(left_temporary);
            }
            None => {
                assert_eq!(
                    found,
                    accepted.len() - 1,
                    "{args:?} ended with another model"
                );
                tally.finished_first += 1;
            }
        }
    }
    tally.took = start.elapsed();
    tally
}

/// Runs `args` and kills it at `moment`: whether it had a model file open for writing then, or
/// `None` when it ended, successfully, before.
fn kill(args: &[&str], stdin: Option<&Path>, moment: Moment, setup: &Setup) -> Option<bool> {
    let mut watch = Watch::start(args, stdin);
    while watch.look(setup) && !watch.due(moment) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let writing = watch.writing_since.is_some();
    // A run that has just ended is reaped, not killed: the signal then changes nothing.
    watch.child.kill().unwrap();
    let output = watch.child.wait_with_output().unwrap();
    if output.status.signal() == Some(SIGKILL) {
        return Some(writing);
    }
    check_success(output);
    None
}

/// Checks the folder after a run (`what`): the model loads and is one of `accepted`, and no
/// temporary file is left once a writer has taken the model's lock. Returns which model it is,
/// and whether a temporary file was left before the lock was taken.
fn check_after_kill(setup: &Setup, accepted: &[Model], what: &str) -> (usize, bool) {
    let model = Model::load(&setup.model)
        .unwrap_or_else(|e| panic!("{what}: the model does not load: {e}"));
    let model = timeless(model);
    let Some(found) = accepted.iter().position(|m| *m == model) else {
        panic!("{what}: the model is neither the old one nor one the run set out to write");
    };
    let left_temporary = !setup.strays().is_empty();
    drop(ModelLock::acquire(&setup.model).unwrap());
    let left = setup.strays();
    assert!(left.is_empty(), "{what}: left {left:?} after the next lock");
    (found, left_temporary)
}

impl Tally {
    /// Prints where the kills landed, and checks that the loop tested what it is for: a share
    /// of the kills must land while a model is being written. Half the draws aim at a write,
    /// and about half of those land inside it, so a quarter is expected; a tenth is the floor.
    fn print(&self, command: &str, names: &[String]) {
        self.show(command, names);
        assert!(
            self.while_writing * 10 >= self.kills,
            "{command}: only {} of {} kills landed during a model write",
            self.while_writing,
            self.kills
        );
    }

    fn show(&self, command: &str, names: &[String]) {
        let found: Vec<String> = names
            .iter()
            .zip(&self.found)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        println!(
            "{command}: {} kills in {:.1} s ({} more runs ended first); {} sent while a model was \
             being written; {} left a temporary file until the next lock; models they left: {}",
            self.kills,
            self.took.as_secs_f64(),
            self.finished_first,
            self.while_writing,
            self.left_temporary,
            found.join(", ")
        );
    }
}

#[test]
#[ignore = "slow: SIGKILL loop"]
fn update_killed_at_random_moments_leaves_the_old_or_the_new_model() {
    let setup = Setup::new();
    let b = setup.input.join("b.tsv");
    let args = ["update", arg(&setup.model), arg(&b), "-q"];
    let (new, profile) = setup.uninterrupted(&args, None);
    let tally = kill_loop(&setup, &args, None, &[setup.old_model(), new], &profile, 1);
    tally.print("update", &["old".into(), "new".into()]);
}

#[test]
#[ignore = "slow: SIGKILL loop"]
fn train_over_an_existing_model_killed_at_random_moments_leaves_the_old_or_the_new_model() {
    let setup = Setup::new();
    let b = setup.input.join("b.tsv");
    let args = [
        "train",
        arg(&b),
        "-o",
        arg(&setup.model),
        "--classifier",
        "mnb",
        "-q",
    ];
    let (new, profile) = setup.uninterrupted(&args, None);
    let tally = kill_loop(&setup, &args, None, &[setup.old_model(), new], &profile, 2);
    tally.print("train -o EXISTING", &["old".into(), "new".into()]);
}

/// `learn` saves the model after every [`CHECKPOINT_EVERY`] documents and at the end, so a killed
/// run may leave the old model or the model after any whole number of checkpoints: each is what
/// an uninterrupted `learn` of that many of the stream's first documents writes. A model after a
/// number of documents between two checkpoints, or half of one, is a failure.
#[test]
#[ignore = "slow: SIGKILL loop"]
fn learn_killed_at_random_moments_leaves_the_old_model_or_a_whole_checkpoint() {
    let setup = Setup::new();
    let stream = setup.input.join("stream.tsv");
    let lines = corpus(1000, 3);
    let every = CHECKPOINT_EVERY.to_string();
    let args = [
        "learn",
        arg(&setup.model),
        "--checkpoint-every",
        &every,
        "-q",
    ];
    let (mut accepted, mut names) = (vec![setup.old_model()], vec!["old".to_string()]);
    let prefix = setup.input.join("prefix.tsv");
    for documents in (CHECKPOINT_EVERY..lines.len()).step_by(CHECKPOINT_EVERY) {
        std::fs::write(&prefix, lines[..documents].concat()).unwrap();
        let model = setup.uninterrupted(&args, Some(&prefix)).0;
        assert_eq!(
            model.info.docs_per_class.iter().sum::<u64>(),
            2000 + documents as u64
        );
        accepted.push(model);
        names.push(format!("after {documents}"));
    }
    let (model, profile) = setup.uninterrupted(&args, Some(&stream));
    accepted.push(model);
    names.push(format!("after {}", lines.len()));
    let tally = kill_loop(&setup, &args, Some(&stream), &accepted, &profile, 3);
    tally.print("learn", &names);
}
