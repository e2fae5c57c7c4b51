#!/usr/bin/env bash
# Builds the Rodinia OpenCL benchmarks (the Ventus team's fork, THU-DSP-LAB/gpu-rodinia) against
# Debian's OpenCL headers and ICD loader, runs each with a small input on pocl and on Ventus,
# and prints a table: benchmark, input, the result on Ventus against pocl, both times, and the
# kernels' time as the program itself reports it.
#
#   scripts/rodinia.sh RODINIA_DIR [BENCH...]
#
# RODINIA_DIR is a checkout of the fork (it is never modified: everything is copied to $WORK).
# Results: "same" (stdout with timing and platform lines filtered, and every file the program
# wrote, byte for byte), "close" (equal but for numbers within a relative 1e-4: float rounding),
# "differs" (the first difference is printed under the table), "fails" (exit status, timeout),
# "no input" (the program needs a data set from the Rodinia download; none is made up here).
# Environment: VENTUS_BUILD_DIR (default build), POCL_ICD (default /etc/OpenCL/vendors/pocl.icd),
# TIMEOUT per run in seconds (default 600), WORK (default ${TMPDIR:-/tmp}/ventus-rodinia),
# VENTUS_JIT_MODES (e.g. "off on force": Ventus runs once per translation mode, VENTUS_JIT, in a
# column each; every mode's output must equal the first mode's byte for byte, else it is listed),
# REPEAT (default 1): runs per platform; results are the first run's, and the "_ms" columns the
# least kernel time of the runs: what the fork's programs print as "Exec: MS", the sum of their
# kernels' profiled times ("-": the program prints none).
# See docs/conformance.md.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -d "$1/opencl" ]; then
  echo "usage: $0 RODINIA_DIR [BENCH...] (RODINIA_DIR/opencl must exist)" >&2
  exit 1
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
rodinia=$(cd "$1" && pwd)
shift
build=$(cd "$repo" && cd "${VENTUS_BUILD_DIR:-build}" && pwd) || exit 1
ventus_icd=$build/ventus.icd
pocl_icd=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
timeout_s=${TIMEOUT:-600}
work=${WORK:-${TMPDIR:-/tmp}/ventus-rodinia}
compare="python3 $repo/scripts/compare_outputs.py"
for f in "$ventus_icd" "$pocl_icd"; do
  [ -f "$f" ] || { echo "$0: $f is missing (build VentusOpenCL / install pocl-opencl-icd)" >&2; exit 1; }
done

# name | directory | executable | arguments ("-" = no input that ships with the repository)
# Sizes are small so that a run on the simulated device takes seconds, not minutes.
# backprop has no input: the fork checks its weights against save_res.txt, which it does not ship.
benchmarks='
backprop|backprop|backprop.out|-
bfs|bfs|bfs.out|graph32.txt
gaussian|gaussian|gaussian.out|-s 16 -p 0 -d 0
hotspot|hotspot|hotspot.out|64 2 4 temp_64 power_64 output.txt
hotspot3D|hotspot3D|hotspot3D.out|-n 64 -l 8 -i 4 -f power_64x8 temp_64x8 output.txt
hybridsort|hybridsort|hybridsort.out|r
kmeans|kmeans|kmeans.out|-o -i 32_34.txt
lavaMD|lavaMD|lavaMD.out|-boxes1d 2
lud|lud|lud.out|-s 64 -v
nw|nw|nw.out|64 10 ./nw.cl -p 0 -d 0
particlefilter|particlefilter|OCL_particlefilter_single.out|-x 32 -y 32 -z 4 -np 1024 -p 0 -d 0
particlefilter_naive|particlefilter|OCL_particlefilter_naive.out|-x 32 -y 32 -z 4 -np 1024
pathfinder|pathfinder|pathfinder.out|-c 1024 -r 16 -h 4
srad|srad|srad.out|-n 2 -l 0.5 -s 64 64 -p 0 -d 0
streamcluster|streamcluster|streamcluster.out|10 20 16 1024 1024 100 none output.txt 1 -p 0 -d 0
b+tree|b+tree|b+tree.out|file mil.txt command command.txt
cfd|cfd|euler3d.out|mesh.domn -p 0 -d 0
dwt2d|dwt2d|dwt2d.out|rgb.bmp -i . -D 64x64 -f -5 -l 3 -p 0 -d 0
heartwall|heartwall|heartwall.out|-
leukocyte|leukocyte|leukocyte.out|-
myocyte|myocyte|myocyte.out|-
nn|nn|nn.out|filelist.txt -r 5 -lat 30 -lng 90 -f data -p 0 -d 0
'

# What each "-" benchmark lacks, printed under the table.
missing_input() {
  case $1 in
  backprop) echo "checks its result against save_res.txt, a reference file the fork does not ship" ;;
  cfd) echo "reads a mesh (fvcorr.domn.*) from the Rodinia data download" ;;
  dwt2d) echo "reads an image (rgb.bmp) from the Rodinia data download" ;;
  heartwall) echo "reads a video (test.avi) from the Rodinia data download" ;;
  leukocyte) echo "reads a video (testfile.avi) from the Rodinia data download" ;;
  myocyte) echo "reads parameter files from the Rodinia data download" ;;
  esac
}

# Programs whose kernels read other workgroups' writes without synchronizing with them: their
# output depends on the order in which workgroups run, which several host threads do not fix
# (docs/conformance.md, "Rodinia"). Ventus runs them on one host thread, where that order is
# always the same, so that translation modes can be compared byte for byte; the reason is
# printed under the table.
races_across_workgroups() {
  case $1 in
  particlefilter) echo "normalize_weights_kernel's work-item 0 runs cdfCalc over every workgroup's weights, and every workgroup reads the u[0] it writes, with only a workgroup barrier between" ;;
  esac
}

# Inputs in a format simple enough to write here (one float per line), deterministic.
make_inputs() { # $1 = benchmark name, $2 = run directory
  case $1 in
  hotspot)
    awk 'BEGIN { for (i = 0; i < 64 * 64; i++) printf "%.6f\n", 320 + (i * 7919 % 1000) / 100 }' > "$2/temp_64"
    awk 'BEGIN { for (i = 0; i < 64 * 64; i++) printf "%.6f\n", (i * 104729 % 1000) / 100000 }' > "$2/power_64" ;;
  hotspot3D)
    awk 'BEGIN { for (i = 0; i < 64 * 64 * 8; i++) printf "%.6f\n", 320 + (i * 7919 % 1000) / 100 }' > "$2/temp_64x8"
    awk 'BEGIN { for (i = 0; i < 64 * 64 * 8; i++) printf "%.6f\n", (i * 104729 % 1000) / 100000 }' > "$2/power_64x8" ;;
  srad) # reads ../../data/srad/image.pgm (502 x 458, ASCII PGM), whatever its size arguments
    mkdir -p "$2/../../data/srad"
    awk 'BEGIN { print "P2\n458 502\n255"; for (i = 0; i < 502 * 458; i++) print (i * 7919 + i / 458 * 31) % 256 }' \
      > "$2/../../data/srad/image.pgm" ;;
  nn) # records of 48 characters, latitude in columns 28-32, longitude in 33-37
    mkdir -p "$2/data/nn"
    for f in 0 1 2 3; do
      awk -v f=$f 'BEGIN { for (i = 0; i < 16; i++)
        printf "%-28s%5.1f%5.1f%-10s\n", sprintf("%d %d CANE%d", 1990 + f, i, f * 16 + i),
               (f * 16 + i) * 7 % 90, (f * 16 + i) * 13 % 180, " " }' > "$2/data/nn/cane4_$f.db"
    done ;;
  dwt2d) # raw 8-bit RGB pixels despite the name (getImg reads width * height * 3 bytes)
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 64 * 64 * 3; i++) printf "%c", (i * 7919 + i / 192 * 31) % 255 + 1 }' \
      > "$2/rgb.bmp" ;;
  cfd) # NEL, then per element: area, 4 x (1-based neighbour or negative for a boundary, 3 normal
    # components); a chain of 256 cells with walls above and below, faces of uneven sizes (so that
    # the flow changes)
    awk 'BEGIN { n = 256; print n
      for (i = 1; i <= n; i++)
        printf "%.4f %d %.2f 0 0 %d 1 0 0 -1 0 1 0 -1 0 -1 0\n", 1 + (i % 7) / 100, (i > 1 ? i - 1 : -2),
               -1 - (i % 5) / 10, (i < n ? i + 1 : -2) }' \
      > "$2/mesh.domn" ;;
  b+tree) # a count then the keys; commands: j COUNT RANGE (range queries), k COUNT (key queries)
    awk 'BEGIN { print 1000; for (i = 0; i < 1000; i++) print (i * 7919) % 1000 + 1 }' > "$2/mil.txt"
    printf 'j 100 10\nk 100\n' > "$2/command.txt" ;;
  esac
}

# Files compared are those the run wrote, less the timing log of streamcluster (PD_OCL.txt).
# Lines that differ between platforms or runs for reasons other than results: timings, device
# and platform names, addresses, and the build logs some programs print between <<<< and >>>>
# (compiler warnings are not results).
filter_stdout() {
  sed '/^<<<<$/,/^>>>>$/d' "$1" |
    grep -viE 'time|took|elapsed|total|[0-9.]+ ?(s|ms|us|sec|seconds)\b|^(init|memalloc|htod|exec|dtoh|dtod|close|api|total): |creating (cpu|gpu) context|^[0-9]+x[0-9]+[[:space:]]+[0-9.]+ \[|\b(cpu|gpu)\b|intel|xeon|authenticamd|\bamd\b|pthread|platform|device|pocl|ventus|vendor|version|0x[0-9a-f]{6,}'
}

# The kernels' milliseconds in a program's output: the sum of its "Exec: MS" lines (b+tree
# prints one per command); nothing when there are none.
exec_ms() { awk '$1 == "Exec:" { sum += $2; n++ } END { if (n) print sum }'; }

mkdir -p "$work/src" "$work/logs"
cp -r "$rodinia/opencl" "$rodinia/common" "$work/src/" 2>/dev/null
[ $# -gt 0 ] && wanted=" $* " || wanted=""
# pocl and Ventus (once per VENTUS_JIT_MODES mode): platforms, ventus_platforms, platform_env.
source "$repo/scripts/platforms.sh"
row() { # benchmark input, then a result per platform, a time per platform, a kernel time per platform
  printf '%-22s %-34s' "$1" "$2"
  shift 2
  printf ' %-13s' "${@:1:${#platforms[@]}}"
  printf ' %9s' "${@:$((${#platforms[@]} + 1)):${#platforms[@]}}"
  printf ' %10s' "${@:$((2 * ${#platforms[@]} + 1))}"
  echo
}
header=() times=() kernel_times=() none=() builds=()
for platform in "${platforms[@]}"; do
  header+=("$platform") times+=("${platform}_s") kernel_times+=("${platform}_ms") none+=(-) builds+=(build)
done
row benchmark input "${header[@]}" "${times[@]}" "${kernel_times[@]}"
notes=""
while IFS='|' read -r name dir exe args; do
  [ -n "$name" ] || continue
  [ -z "$wanted" ] || [[ $wanted == *" $name "* ]] || continue
  if [ "$args" = - ]; then
    row "$name" "no input" "${none[@]}" "${none[@]}" "${none[@]}"
    notes+="$name: no input: $(missing_input "$name")"$'\n'
    continue
  fi
  src=$work/src/opencl/$dir
  if ! (cd "$src" && nice -n 15 make OPENCL_INC=/usr/include OPENCL_LIB=/usr/lib/x86_64-linux-gnu \
          OPENCL_DIR=/usr > "$work/logs/$name.build" 2>&1) || [ ! -x "$src/$exe" ]; then
    row "$name" "$args" "${builds[@]}" "${none[@]}" "${none[@]}"
    notes+="$name: build failed, see $work/logs/$name.build"$'\n'
    continue
  fi
  declare -A status seconds kernel_ms
  race=$(races_across_workgroups "$name")
  [ -z "$race" ] || notes+="$name: Ventus on one host thread: its kernels race across workgroups ($race)"$'\n'
  for platform in "${platforms[@]}"; do
    run=$work/run/$platform/$name
    rm -rf "$run" && mkdir -p "$(dirname "$run")" && cp -r "$src" "$run"
    make_inputs "$name" "$run"
    touch "$run/.start" && sleep 1 # files written by the run are newer than .start
    platform_env "$platform"
    [ "$platform" != pocl ] && [ -n "$race" ] && platform_vars+=(VENTUS_HOST_THREADS=1)
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # the arguments are a word list
    (cd "$run" && env "${platform_vars[@]}" timeout "$timeout_s" nice -n 15 "./$exe" $args \
       > "$work/logs/$name.$platform.out" 2>&1)
    rc=$?
    seconds[$platform]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    filter_stdout "$work/logs/$name.$platform.out" > "$work/logs/$name.$platform.filtered"
    # The kernels' time of this run and of REPEAT - 1 more in a copy (whose outputs are not
    # compared).
    kernel_ms[$platform]=$(exec_ms < "$work/logs/$name.$platform.out")
    if [ "${REPEAT:-1}" -gt 1 ] && [ $rc -eq 0 ]; then
      rm -rf "$run.again" && cp -r "$src" "$run.again" && make_inputs "$name" "$run.again"
    fi
    for ((again = 1; again < ${REPEAT:-1} && rc == 0; again++)); do
      # shellcheck disable=SC2086 # the arguments are a word list
      ms=$(cd "$run.again" && env "${platform_vars[@]}" timeout "$timeout_s" nice -n 15 "./$exe" $args 2>&1 | exec_ms)
      [ -n "$ms" ] && kernel_ms[$platform]=$(awk -v a="$ms" -v b="${kernel_ms[$platform]:-$ms}" \
                                               'BEGIN { print (a + 0 < b + 0) ? a : b }')
    done
    [ -n "${kernel_ms[$platform]}" ] && kernel_ms[$platform]=$(printf '%.3f' "${kernel_ms[$platform]}")
    if [ $rc -eq 124 ]; then status[$platform]=timeout
    elif [ $rc -ne 0 ]; then status[$platform]="rc=$rc"
    else status[$platform]=ok; fi
  done
  results=() times=()
  for platform in "${ventus_platforms[@]}"; do
    result=${status[$platform]}
    if [ "${status[pocl]}" = ok ] && [ "${status[$platform]}" = ok ]; then
      result=same
      for f in "$work/logs/$name.pocl.filtered" $(cd "$work/run/pocl/$name" && find . -type f -newer .start ! -name PD_OCL.txt | sort); do
        if [[ $f == /* ]]; then ref=$f other=${f/.pocl./.$platform.} label=stdout
        else ref=$work/run/pocl/$name/$f other=$work/run/$platform/$name/$f label=$f; fi
        if [ ! -f "$other" ]; then verdict="differs: not written"
        else verdict=$($compare "$ref" "$other"); fi
        case $verdict in
        same) ;;
        close) [ $result = same ] && result=close ;;
        *) result=differs; notes+="$name: $label $verdict on $platform"$'\n' ;;
        esac
      done
    elif [ "${status[$platform]}" != ok ]; then
      result=fails
      notes+="$name: $platform ${status[$platform]} (pocl ${status[pocl]}): $(grep -v '^$' "$work/logs/$name.$platform.out" | tail -1 | cut -c1-160)"$'\n'
    fi
    results+=("$result")
  done
  # Translation must not change a result: every mode writes what the first one wrote.
  first=${ventus_platforms[0]}
  for platform in "${ventus_platforms[@]:1}"; do
    for f in "$work/logs/$name.$first.filtered" $(cd "$work/run/$first/$name" && find . -type f -newer .start ! -name PD_OCL.txt | sort); do
      if [[ $f == /* ]]; then other=${f/.$first./.$platform.} label=stdout
      else label=$f other=$work/run/$platform/$name/$f f=$work/run/$first/$name/$f; fi
      cmp -s "$f" "$other" || notes+="$name: $label of $platform differs from $first's (translation modes differ)"$'\n'
    done
    [ "${status[$platform]}" = "${status[$first]}" ] ||
      notes+="$name: $platform ${status[$platform]}, $first ${status[$first]} (translation modes differ)"$'\n'
  done
  kernel_times=()
  for platform in "${platforms[@]}"; do
    times+=("${seconds[$platform]}") kernel_times+=("${kernel_ms[$platform]:--}")
  done
  row "$name" "$args" "${status[pocl]}" "${results[@]}" "${times[@]}" "${kernel_times[@]}"
done <<< "$benchmarks"
[ -z "$notes" ] || printf '\n%s' "$notes"
echo "logs: $work/logs"
