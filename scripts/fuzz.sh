#!/usr/bin/env bash
# Coverage-guided fuzzing: builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) with clang 15
# in build-fuzz and runs each on its seed corpus (tests/fuzz/corpus/NAME/) for a bounded
# time. Any crash, sanitizer report, leak, timeout or out-of-memory fails the script; the
# input that caused it is left in build-fuzz/artifacts/.
#
#   scripts/fuzz.sh                    every target, 30 s each
#   FUZZ_SECONDS=300 scripts/fuzz.sh   longer
#   FUZZ_SEED=0 scripts/fuzz.sh        a random seed each run
#
# The seed is fixed (1) by default, so a run explores the same inputs in the same order on
# every machine: a shorter run (CI's) sees a prefix of what a longer one here has checked.
#   scripts/fuzz.sh assembler elf      only these targets
#
# New inputs the fuzzer finds go to build-fuzz/corpus/NAME/, not into the repository: copy
# the interesting ones (small, covering something new) into tests/fuzz/corpus/NAME/. Some
# targets also take seeds from elsewhere in the repository (extra_seeds below: the
# assembler starts from examples/ too), read only, so no copy is kept in the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-30}
build=${FUZZ_BUILD_DIR:-build-fuzz}
cc=${FUZZ_CC:-clang-15}
cxx=${FUZZ_CXX:-clang++-15}

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" -DVENTUS_LIBFUZZER=ON "${launcher[@]}" >/dev/null

targets=()
if [ $# -gt 0 ]; then
  for name in "$@"; do targets+=("fuzz_${name#fuzz_}"); done
  cmake --build "$build" --target "${targets[@]}"
else
  cmake --build "$build" --target fuzz_targets
  for source in tests/fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("$name")
  done
fi

# Seed folders besides tests/fuzz/corpus/NAME, by target name.
declare -A extra_seeds=([assembler]="examples")

mkdir -p "$build/artifacts"
failed=()
for target in "${targets[@]}"; do
  name=${target#fuzz_}
  corpus=$build/corpus/$name
  mkdir -p "$corpus"
  seeds=("tests/fuzz/corpus/$name")
  if [ -n "${extra_seeds[$name]:-}" ]; then seeds+=(${extra_seeds[$name]}); fi
  echo "fuzz: $target for ${seconds} s (seeds: ${seeds[*]})"
  # New inputs go to the first folder (in the build folder); the seeds are only read.
  if ! "$build/tests/fuzz/$target" -max_total_time="$seconds" -seed="${FUZZ_SEED:-1}" \
    -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
    "$corpus" "${seeds[@]}" >"$build/$target.log" 2>&1; then
    tail -n 60 "$build/$target.log"
    failed+=("$target")
  else
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$build/$target.log" | tail -n 2 || true
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/artifacts/, logs in $build/)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each without a crash"
