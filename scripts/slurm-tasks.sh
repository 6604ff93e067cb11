#!/usr/bin/env bash
#===- scripts/slurm-tasks.sh - vegasflow on SLURM job arrays ---------------===#
#
# One iteration is a job array of part tasks (task i computes part i of N
# of the state's next iteration into DIR) and a merge job depending on it
# (the next state, which is also the run's checkpoint); the iterations are
# a chain of such pairs. The result is bitwise that of vegasc alone.
#
#   slurm-tasks.sh submit DIR N FILE.vf --iterations I --warmup W [settings]
#       sbatch the whole chain (extra sbatch options in $SBATCH_OPTS)
#   slurm-tasks.sh local  DIR N FILE.vf --iterations I --warmup W [settings]
#       the same tasks as local processes (N parts at once), then the result
#   slurm-tasks.sh part DIR K [I]    array task I ($SLURM_ARRAY_TASK_ID) of
#                                    iteration K
#   slurm-tasks.sh merge DIR K       iteration K's merge
#   slurm-tasks.sh result DIR [--json FILE]
#
# DIR must be on a filesystem every node sees. The settings are saved in
# DIR/args at the first submit/local; a second one continues from the last
# state in DIR (a killed chain resumes, bitwise). $VEGASC names vegasc
# (default: vegasc on PATH).
#
#===------------------------------------------------------------------------===#
set -euo pipefail
VEGASC=${VEGASC:-vegasc}
SELF=$(readlink -f "$0")

die() { echo "slurm-tasks: $*" >&2; exit 2; }

# The saved FILE.vf and settings, into ARGS; N and TOTAL iterations.
load() {
  [ -f "$1/args" ] || die "$1/args is missing: start with submit or local"
  mapfile -t ARGS < "$1/args"
  N=${ARGS[0]}
  ARGS=("${ARGS[@]:1}")
  local it="" wu="" j
  for ((j = 0; j < ${#ARGS[@]}; ++j)); do
    case ${ARGS[j]} in
      --iterations) it=${ARGS[j + 1]} ;;
      --warmup) wu=${ARGS[j + 1]} ;;
    esac
  done
  [ -n "$it" ] && [ -n "$wu" ] || die "give --iterations and --warmup"
  TOTAL=$((it + wu))
}

# Saves the settings once (a later call must repeat them) and writes the
# initial state; prints the last iteration with a state.
start() {
  local dir=$1 n=$2
  shift 2
  mkdir -p "$dir"
  if [ -f "$dir/args" ]; then
    printf '%s\n' "$n" "$@" | cmp -s - "$dir/args" ||
      die "$dir holds another run ($dir/args); use another folder"
  else
    printf '%s\n' "$n" "$@" > "$dir/args"
  fi
  load "$dir"
  [ -f "$dir/state.0" ] || "$VEGASC" "${ARGS[@]}" --task-init "$dir/state.0"
  local k=0
  while [ -f "$dir/state.$((k + 1))" ]; do k=$((k + 1)); done
  echo "$k"
}

part() {
  load "$1"
  local k=$2 i=${3:-${SLURM_ARRAY_TASK_ID:?not an array task}}
  "$VEGASC" "${ARGS[@]}" --task-part "$i/$N" --state "$1/state.$((k - 1))" \
    --out "$1/part.$k.$i" -q
}

merge() {
  load "$1"
  local k=$2 parts=() i
  for ((i = 0; i < N; ++i)); do parts+=("$1/part.$k.$i"); done
  "$VEGASC" "${ARGS[@]}" --task-merge "${parts[@]}" \
    --state "$1/state.$((k - 1))" --out "$1/state.$k" -q
  rm -f "${parts[@]}"
}

result() {
  local dir=$1
  shift
  load "$dir"
  "$VEGASC" "${ARGS[@]}" --task-result --state "$dir/state.$TOTAL" "$@"
}

cmd=${1:-}
[ $# -ge 2 ] || die "usage: see the top of $SELF"
shift
case $cmd in
  submit)
    dir=$(readlink -f "$1")
    last=$(start "$dir" "${@:2}")
    load "$dir"
    prev=""
    for ((k = last + 1; k <= TOTAL; ++k)); do
      dep=${prev:+--dependency=afterok:$prev}
      arr=$(sbatch --parsable ${SBATCH_OPTS:-} $dep --array=0-$((N - 1)) \
        --job-name "vf-part-$k" --wrap "'$SELF' part '$dir' $k")
      prev=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency=afterok:$arr \
        --job-name "vf-merge-$k" --wrap "'$SELF' merge '$dir' $k")
    done
    echo "slurm-tasks: submitted iterations $((last + 1))..$TOTAL; then:" \
      "$SELF result $dir"
    ;;
  local)
    dir=$1
    last=$(start "$dir" "${@:2}")
    load "$dir"
    for ((k = last + 1; k <= TOTAL; ++k)); do
      pids=()
      for ((i = 0; i < N; ++i)); do
        part "$dir" "$k" "$i" & pids+=($!)
      done
      for p in "${pids[@]}"; do wait "$p"; done
      merge "$dir" "$k"
    done
    result "$dir"
    ;;
  part) part "$@" ;;
  merge) merge "$@" ;;
  result) result "$@" ;;
  *) die "unknown command '$cmd'" ;;
esac
