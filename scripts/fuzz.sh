#!/usr/bin/env bash
# scripts/fuzz.sh: runs every fuzz target for a while, one after the other,
# and says which failed and where the failing input was written.
#
# usage: scripts/fuzz.sh [-p PARALLEL] [-m MINIMIZETIME] [-o LOGDIR] [DURATION [FILTER]]
#
#   DURATION      per target, as go test -fuzztime takes it (5m, 90s, 100000x);
#                 default $FUZZTIME, else 5m
#   FILTER        an extended regexp; only targets whose "dir Name" matches run
#   -p PARALLEL   fuzzing workers per target (go test -parallel); default
#                 $FUZZPARALLEL, else Go's default, GOMAXPROCS
#   -m MINIMIZE   time to minimize each new input (go test -fuzzminimizetime);
#                 default $FUZZMINIMIZETIME, else 10s. Go's default of 60s can
#                 spend most of a short run minimizing large inputs.
#   -o LOGDIR     where the logs go; default a new directory under $TMPDIR
#
# Targets are found as .ci/run finds them: every func FuzzXxx in a _test.go
# file, skipping what the go command ignores (directories named testdata or
# starting with _ or .). Each target's output goes to LOGDIR/DIR_NAME.log,
# and a summary line per target (duration, execs, new interesting inputs,
# result) to LOGDIR/summary. A failing input is written by go test to
# DIR/testdata/fuzz/NAME/; keep it there as a regression seed once the bug
# is fixed. The script runs every target and exits 1 if any failed (a build
# failure counts).
set -euo pipefail
cd "$(dirname "$0")/.."

parallel=${FUZZPARALLEL:-}
minimize=${FUZZMINIMIZETIME:-10s}
logdir=
while getopts p:m:o: opt; do
	case $opt in
	p) parallel=$OPTARG ;;
	m) minimize=$OPTARG ;;
	o) logdir=$OPTARG ;;
	*) sed -n '4,5p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
fuzztime=${1:-${FUZZTIME:-5m}}
filter=${2:-}
if [[ -z $logdir ]]; then
	logdir=$(mktemp -d "${TMPDIR:-/tmp}/fae-fuzz.XXXXXX")
fi
mkdir -p "$logdir"
summary=$logdir/summary
: >"$summary"

targets=()
while IFS= read -r file; do
	dir=$(dirname "$file")
	for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
		if [[ -z $filter || "$dir $name" =~ $filter ]]; then
			targets+=("$dir $name")
		fi
	done
done < <(find . -mindepth 1 \( -name '_*' -o -name '.*' -o -name testdata \) -prune -o -type f -name '*_test.go' -print | sort)
if [[ ${#targets[@]} -eq 0 ]]; then
	echo "no fuzz target matches ${filter@Q}" >&2
	exit 2
fi

echo "fuzzing ${#targets[@]} targets for $fuzztime each${parallel:+, -parallel=$parallel}; logs in $logdir"
failed=0
for target in "${targets[@]}"; do
	read -r dir name <<<"$target"
	rel=${dir#./}
	log=$logdir/$(echo "${rel/#./root}_$name" | tr / _).log
	args=(-run='^$' -fuzz="^$name\$" -fuzztime="$fuzztime" -fuzzminimizetime="$minimize")
	if [[ -n $parallel ]]; then
		args+=(-parallel="$parallel")
	fi
	start=$SECONDS
	if go test "${args[@]}" "$dir" >"$log" 2>&1; then
		result=ok
	else
		result=FAIL
		failed=1
	fi
	# The last progress line holds the totals Go reports; an exec counts once
	# its worker reports back, so a few of the last may be missing.
	last=$(grep '^fuzz: elapsed:' "$log" | tail -1 || true)
	execs=$(sed -n 's/.*execs: \([0-9]*\).*/\1/p' <<<"$last")
	interesting=$(sed -n 's/.*new interesting: \([0-9]*\).*/\1/p' <<<"$last")
	line=$(printf '%-16s %-18s %5ds  execs %10s  new interesting %5s  %s' \
		"$rel" "$name" $((SECONDS - start)) "${execs:--}" "${interesting:--}" "$result")
	if [[ $result == FAIL ]]; then
		input=$(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' "$log" | tail -1)
		if [[ -n $input ]]; then
			line+="  input: $rel/$input"
		else
			line+="  (no input written: build or seed-corpus failure, see $log)"
		fi
	fi
	echo "$line" | tee -a "$summary"
done

if [[ $failed -ne 0 ]]; then
	echo "some targets failed; logs in $logdir" >&2
	exit 1
fi
echo "all targets passed; logs in $logdir"
