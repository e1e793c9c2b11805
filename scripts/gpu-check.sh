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
# Results: machine.txt (GPU, driver, CPU); tests.txt (both kinds of
# kernels against the CPU packages, one message and batches, with the
# bitsliced kernels' PTX instructions per block); bench.txt (Go's output:
# every kernel alone, bitsliced (fae_bs_*) and table-based, AES-128 and
# AES-256, and the copy bandwidth) and gbits.txt (the same in Gbit/s);
# fae-bench-gpu.json (fae bench --gpu: AES-128 kernel-only and end-to-end
# rows, pinned and Go memory, and batches of 1,048,576 1500-byte messages,
# both kinds of kernels, with its progress in Gbit/s in fae-bench-gpu.log);
# and, where ptxas and cuobjdump exist, ptxas.txt with every kernel's
# registers, spills and shared memory (regs.txt: one line per kernel; the
# bitsliced kernels need about 200 registers a thread: spills there cost
# most) and sass.txt with the instruction mix per kernel.
# Budget: about two minutes for the tests, one for Go's benchmarks, two for
# fae bench --gpu; each step has a time limit (150, 90, 150 and 90 s for
# ptxas), so the whole takes at most 8 minutes.
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
	FAE_GPU_BIG=1 FAE_PTX_OUT="$out/fae.ptx" "$dir/gpu.test" -test.v -test.run '^Test(GPU|WritePTX|SlicedCost)' -test.timeout 150s \
		>"$out/tests.txt" 2>&1 || status=1
	grep -E '^(--- |ok|PASS|FAIL)' "$out/tests.txt" || true
	if grep -q -- '--- SKIP: TestGPU' "$out/tests.txt"; then
		echo "the GPU tests skipped: no usable GPU (see $out/tests.txt)"
		exit 1
	fi
	# End to end is fae bench's part below.
	"$dir/gpu.test" -test.run '^$' -test.bench '^Benchmark(Kernel|Copy)$' -test.benchtime 3x -test.timeout 90s \
		>"$out/bench.txt" 2>&1 || status=1
	# Go reports MB/s (10^6 bytes per second); Gbit/s = MB/s * 8 / 1000.
	awk '/MB\/s/ { for (i = 1; i < NF; i++) if ($(i+1) == "MB/s") printf "%-50s %10.1f Gbit/s\n", $1, $i * 8 / 1000 }' \
		"$out/bench.txt" >"$out/gbits.txt"
	timeout 150 "$dir/fae" bench --gpu --format json >"$out/fae-bench-gpu.json" 2>"$out/fae-bench-gpu.log" || status=1
	if command -v ptxas >/dev/null && command -v cuobjdump >/dev/null && [ -s "$out/fae.ptx" ]; then
		arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
		timeout 90 ptxas -v -arch="sm_${arch:-90}" -o "$out/fae.cubin" "$out/fae.ptx" 2>"$out/ptxas.txt" &&
			cuobjdump -sass "$out/fae.cubin" >"$out/sass.txt" || status=1
		# One line per kernel: name, registers, spill stores and loads.
		awk '/Compiling entry function/ { name = $7 }
			/spill stores/ { spill = $5 " " $9 }
			/Used [0-9]+ registers/ { for (i = 1; i < NF; i++) if ($(i+1) == "registers,") print name, $i, "registers, spills (stores, loads):", spill }' \
			"$out/ptxas.txt" >"$out/regs.txt"
		cat "$out/regs.txt"
	fi
	cat "$out/gbits.txt"
	grep 'Gbit/s' "$out/fae-bench-gpu.log" || true
	exit $status
	;;
*)
	echo "usage: $0 build [DIR] | run [DIR]" >&2
	exit 2
	;;
esac
