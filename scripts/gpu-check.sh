#!/bin/sh
# gpu-check.sh: the GPU checks of the gpu package, in two steps.
#
#   scripts/gpu-check.sh build [DIR]   on a machine with Go: builds DIR
#                                      (default gpu-check) with gpu.test and
#                                      fae (linux/amd64, CGO_ENABLED=0) and
#                                      a copy of this script
#   DIR/gpu-check.sh run [DIR]         on the GPU machine, no Go needed: runs
#                                      the GPU tests (random inputs up to
#                                      1 GiB) and the benchmarks, and writes
#                                      DIR/results/
#
# Results: machine.txt (GPU, driver, CPU), tests.txt (with the bitsliced
# kernels' PTX instructions per block), bench.txt (Go's output: every kernel
# bitsliced (fae_bs_*) and table-based, end to end both kinds), gbits.txt
# (every benchmark in Gbit/s), fae-bench-gpu.txt and, where ptxas and
# cuobjdump exist, sass.txt with the instruction mix per kernel and
# ptxas.txt with its registers, spills and shared memory (the bitsliced
# kernels need about 200 registers a thread: spills there cost most).
# Budget: about two minutes for the tests, four for the benchmarks.
set -eu

cmd=${1:-}
dir=${2:-gpu-check}

case $cmd in
build)
	root=$(cd "$(dirname "$0")/.." && pwd)
	mkdir -p "$dir"
	(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go test -c -o "$dir/gpu.test" ./gpu)
	(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o "$dir/fae" ./cmd/fae)
	cp "$root/scripts/gpu-check.sh" "$dir/"
	echo "built $dir: copy it to the GPU machine and run $dir/gpu-check.sh run $dir"
	;;
run)
	out=$dir/results
	mkdir -p "$out"
	{
		date -u
		uname -a
		nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 || echo "no nvidia-smi"
		grep -m1 'model name' /proc/cpuinfo || true
	} >"$out/machine.txt"
	status=0
	# Only the tests that need a GPU: the emulator's run in CI, and take
	# minutes there.
	FAE_GPU_BIG=1 FAE_PTX_OUT="$out/fae.ptx" "$dir/gpu.test" -test.v -test.run '^Test(GPU|WritePTX|SlicedCost)' -test.timeout 20m \
		>"$out/tests.txt" 2>&1 || status=1
	grep -E '^(--- |ok|PASS|FAIL)' "$out/tests.txt" || true
	if grep -q -- '--- SKIP: TestGPU' "$out/tests.txt"; then
		echo "the GPU tests skipped: no usable GPU (see $out/tests.txt)"
		exit 1
	fi
	"$dir/gpu.test" -test.run '^$' -test.bench . -test.benchtime 3x -test.timeout 30m \
		>"$out/bench.txt" 2>&1 || status=1
	# Go reports MB/s (10^6 bytes per second); Gbit/s = MB/s * 8 / 1000.
	awk '/MB\/s/ { for (i = 1; i < NF; i++) if ($(i+1) == "MB/s") printf "%-50s %10.1f Gbit/s\n", $1, $i * 8 / 1000 }' \
		"$out/bench.txt" >"$out/gbits.txt"
	"$dir/fae" bench --gpu >"$out/fae-bench-gpu.txt" 2>&1 || status=1
	if command -v ptxas >/dev/null && command -v cuobjdump >/dev/null && [ -s "$out/fae.ptx" ]; then
		arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
		ptxas -v -arch="sm_${arch:-90}" -o "$out/fae.cubin" "$out/fae.ptx" 2>"$out/ptxas.txt" &&
			cuobjdump -sass "$out/fae.cubin" >"$out/sass.txt" || status=1
	fi
	cat "$out/gbits.txt"
	exit $status
	;;
*)
	echo "usage: $0 build [DIR] | run [DIR]" >&2
	exit 2
	;;
esac
