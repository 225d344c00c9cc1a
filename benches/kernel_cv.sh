#!/usr/bin/env bash
# README's table of kernels: bowline's linear SVM, exact kernel SVMs (rbf, degree-2 polynomial)
# and the two approximations of the rbf kernel (Nyström and random Fourier features, M = 1,000),
# each by 5-fold `bowline cv` (folds from a hash of each document's id, seed 1) on training data
# only, with bowline's default analysis and weighting and each model's defaults (the kernel SVM:
# C 1, gamma `scale`; the approximations: the linear SVM's C 3 over the map):
#
# - 20news: 20 Newsgroups' train/ (11,314 posts); the kernel SVMs get --cache-mb 400, which holds
#   a fold's whole kernel matrix (9,051² f32 values, 328 MB), instead of the default 200.
# - sms, amazon, imdb: the training parts that benches/corpora.py writes to target/bench-corpora
#   (SMS 70% by a hash of the line number; amazon and imdb the 70% that benches/defaults.py read,
#   the other 30% held out for benches/compare.py).
# Reuters-21578 is multi-label, which the kernel SVM and the approximations do not take.
#
#   benches/kernel_cv.sh [20news] [sms] [amazon] [imdb]   (default: all four)
#
# Each cell is the mean accuracy over the folds and the wall time of the whole `cv` run (five
# trainings and five evaluations, both cores), run once; the load average is printed per corpus.
set -euo pipefail
corpora=../shared/corpora
which=("$@")
[ ${#which[@]} -gt 0 ] || which=(20news sms amazon imdb)
cargo build --release --quiet
bin=target/release/bowline
data=target/bench-corpora
python3 benches/corpora.py "$data"

# cell CORPUS FLAGS...: "accuracy ± sd, seconds"
cell() {
    local corpus=$1 start end json
    shift
    start=$(date +%s.%N)
    json=$("$bin" cv "$corpus" --folds 5 --json -q "$@")
    end=$(date +%s.%N)
    python3 -c 'import json, sys
a = json.loads(sys.argv[1])["accuracy"]
mean, sd, seconds = a["mean"], a["std"], float(sys.argv[3]) - float(sys.argv[2])
print(f"{mean:.4f} ± {sd:.4f}, {seconds:.1f} s")' "$json" "$start" "$end"
}

echo "| corpus | linear SVM | rbf | poly 2 | Nyström 1,000 | RFF 1,000 |"
echo "|---|---|---|---|---|---|"
for name in "${which[@]}"; do
    case $name in
        20news) corpus=$corpora/20news-bydate/train cache=(--cache-mb 400) ;;
        sms | amazon | imdb) corpus=$data/$name-train.tsv cache=() ;;
        *) echo "unknown corpus $name" >&2; exit 2 ;;
    esac
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    row="| $name | $(cell "$corpus")"
    row+=" | $(cell "$corpus" --kernel rbf "${cache[@]}")"
    row+=" | $(cell "$corpus" --kernel poly --degree 2 "${cache[@]}")"
    row+=" | $(cell "$corpus" --approx nystroem --components 1000)"
    row+=" | $(cell "$corpus" --approx rff --components 1000) |"
    echo "$row"
done
