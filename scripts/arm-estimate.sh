#!/usr/bin/env bash
# scripts/arm-estimate.sh: simulated speed of fae's ARM kernels, in cycles
# per byte, from LLVM's machine-code analyzer. There is no ARM hardware
# here; llvm-mca's scheduling models of the Cortex-A9 (ARMv7, GOARCH=arm)
# and the Cortex-A72, Neoverse N1 and Neoverse V1 (arm64) say how fast the
# code should run and where it stalls.
#
# usage: scripts/arm-estimate.sh [FILTER]
#
#   FILTER   an extended regexp; only kernels whose line in the table below
#            matches are measured
#
# Method: the script builds the test binaries of the packages with ARM
# kernels for GOARCH=arm (GOARM=7) and arm64 (a package archive has no
# final code: the linked binary has), disassembles each kernel by symbol
# with llvm-objdump, cuts out a loop by its closing backward branch, and has
# llvm-mca run it 100 times on each CPU model. A kernel's figure is
#   (ITERS x cycles of the loop + cycles of the rest of the outer loop) / BYTES
# where the outer loop (a group of blocks) minus the loops inside it holds
# the loads, stores and transposition run once per group; "-" for OUTER
# counts the loop alone.
#
# Limits: a static model. It assumes every load hits L1, knows nothing of
# frequency or of other cores, and models some instructions coarsely (the
# Cortex-A9 model gives VLD4 and VST4 no pipeline at all). Figures are per
# core. llvm-mca's Cortex-A9 model crashes on post-indexed loads and stores
# (Go's MOVW.P, "ldr r0, [r1], #4"): the script rewrites each into the
# plain access and an ADD before analysis, which the model times alike.
#
# Needs llvm-objdump-19, llvm-nm-19 and llvm-mca-19 (Debian: llvm-19), or
# the same tools unsuffixed; LLVM set LLVM_SUFFIX= to use another version.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=${1:-}
suffix=${LLVM_SUFFIX--19}
objdump=llvm-objdump$suffix nm=llvm-nm$suffix mca=llvm-mca$suffix
for tool in "$objdump" "$nm" "$mca"; do
	command -v "$tool" >/dev/null || { echo "arm-estimate: $tool not found" >&2; exit 1; }
done

# The kernels. ARCH PKG SYMBOL LOOP OUTER ITERS BYTES NAME: LOOP and OUTER
# number the backward branches of the symbol's code in address order (from
# 0), ITERS is how often LOOP runs per pass of OUTER, BYTES what one pass
# (or, with OUTER "-", one iteration of LOOP) processes. The arm loops take
# 13 blocks, four rounds an iteration, the arm64
# LEA loops 16 blocks, four rounds. The AES kernels' loops hold the round
# code of every key size one after the other, which straight through is
# AES-256's; they take 8 blocks. AEGIS runs six updates an iteration (one
# lane), ROCCA-S eight rounds.
kernels='
arm   internal/lea encryptBlocksNEON 0 2 6  208 LEA-128_ECB_encrypt
arm   internal/lea encryptBlocksNEON 1 2 8  208 LEA-256_ECB_encrypt
arm   internal/lea decryptBlocksNEON 0 1 6  208 LEA-128_ECB_decrypt
arm   internal/lea ctrBlocksNEON     0 2 6  208 LEA-128_CTR
arm64 internal/lea encryptBlocksNEON 0 1 6  256 LEA-128_ECB_encrypt
arm64 internal/lea decryptBlocksNEON 0 1 6  256 LEA-128_ECB_decrypt
arm64 internal/lea ctrBlocksNEON     0 1 6  256 LEA-128_CTR
arm64 internal/aes ctrBlocksARMv8    0 - 1  128 AES-256-CTR
arm64 ocb          ocbEncARMv8       0 - 1  128 OCB3_AES-256_encrypt
arm64 ocb          ocbDecARMv8       0 - 1  128 OCB3_AES-256_decrypt
arm64 raocb        raocbEncARMv8     0 - 1  128 RAOCB_AES-256_encrypt
arm64 gcm          sealARMv8         0 - 1  128 GCM_AES-256_seal
arm64 gcm          openARMv8         0 - 1  128 GCM_AES-256_open
arm64 gcm          ghashARMv8        0 - 1  128 GHASH
arm64 aegis        aegis128ARMv8     1 - 1  192 AEGIS-128L_encrypt
arm64 aegis        aegis256ARMv8     1 - 1  96  AEGIS-256_encrypt
arm64 rocca        encryptARMv8      0 - 1  256 ROCCA-S_encrypt
'

cpus() {
	case $1 in
	arm) echo cortex-a9 ;;
	arm64) echo cortex-a72 neoverse-n1 neoverse-v1 ;;
	esac
}

triple() {
	case $1 in
	arm) echo armv7a-linux-gnueabihf ;;
	arm64) echo aarch64-linux-gnu ;;
	esac
}

# attr gives the features the kernels of ARCH use.
attr() {
	case $1 in
	arm) echo +neon ;;
	arm64) echo +neon,+aes,+crypto ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# binary ARCH PKG builds (once) and prints the test binary of PKG for ARCH.
binary() {
	local out=$tmp/$1_${2//\//_}.test
	if [[ ! -e $out ]]; then
		GOARCH=$1 GOARM=7 go test -c -o "$out" "./$2" >&2
	fi
	echo "$out"
}

# disasm BIN PKG SYMBOL ARCH prints the symbol's instructions, one a line:
# address, tab, instruction.
disasm() {
	local sym
	sym=$("$nm" "$1" | awk -v s="github.com/faelabs/fae/$2.$3" '!found && ($3 == s || $3 == s ".abi0") { print $3; found = 1 }')
	if [[ -z $sym ]]; then
		echo "arm-estimate: no symbol $2.$3 in $1" >&2
		return 1
	fi
	"$objdump" -d --no-show-raw-insn --triple="$(triple "$4")" --mattr="$(attr "$4")" --disassemble-symbols="$sym" "$1" |
		awk '/^ *[0-9a-f]+:/ { a = $1; sub(/:$/, "", a); sub(/^ *[0-9a-f]+:[ \t]*/, ""); gsub(/\t/, " "); print a "\t" $0 }'
}

# cut MODE K reads disasm's output and prints, as llvm-mca input, loop K
# (MODE loop) or loop K without the loops inside it (MODE outer). A loop
# runs from the target of a backward branch to the branch; branch targets
# become ".", and post-indexed accesses an access and an ADD.
cut() {
	awk -F'\t' -v mode="$1" -v k="$2" '
	function hex(s,   v, i) {
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	{ addr[NR] = hex($1); ins[NR] = $2; n = NR }
	END {
		m = 0
		for (i = 1; i <= n; i++) {
			if (split(ins[i], f, /[ \t]+/) >= 2 && f[1] ~ /^(b|b\.[a-z]+|b[a-z][a-z]|cbn?z|tbn?z)$/ && match(ins[i], /0x[0-9a-f]+ </)) {
				t = hex(substr(ins[i], RSTART, RLENGTH - 2))
				if (t <= addr[i]) { from[m] = t; to[m] = addr[i]; m++ }
			}
		}
		if (k >= m) { print "arm-estimate: no loop " k > "/dev/stderr"; exit 1 }
		for (i = 1; i <= n; i++) {
			if (addr[i] < from[k] || addr[i] > to[k]) continue
			if (mode == "outer") {
				inner = 0
				for (j = 0; j < m; j++)
					if (j != k && from[j] >= from[k] && to[j] <= to[k] && addr[i] >= from[j] && addr[i] <= to[j]) inner = 1
				if (inner) continue
			}
			s = ins[i]
			sub(/ *@.*/, "", s)
			sub(/0x[0-9a-f]+ <[^>]*>/, ".", s)
			if (s ~ /<unknown>/) { print "arm-estimate: undecoded instruction at " sprintf("%x", addr[i]) > "/dev/stderr"; exit 1 }
			# ldr r0, [r1], #4 -> ldr r0, [r1]; add r1, r1, #4 (32-bit ARM)
			if (s ~ /^(ldr|str)[a-z]*[ \t]+r[0-9]+, \[r[0-9]+\], #-?(0x)?[0-9a-f]+$/) {
				match(s, /\[r[0-9]+\]/); base = substr(s, RSTART + 1, RLENGTH - 2)
				match(s, /#-?(0x)?[0-9a-f]+$/); off = substr(s, RSTART)
				sub(/, #-?(0x)?[0-9a-f]+$/, "", s)
				print s; print "add " base ", " base ", " off
				continue
			}
			print s
		}
	}'
}

# cycles ARCH CPU FILE prints llvm-mca's cycles per iteration of FILE.
cycles() {
	"$mca" -mtriple="$(triple "$1")" -mcpu="$2" -mattr="$(attr "$1")" -iterations=100 "$3" |
		awk '/^Iterations:/ { it = $2 } /^Total Cycles:/ { c = $3 } END { if (!it) exit 1; printf "%.2f", c / it }'
}

printf '%-6s %-22s %-12s %10s %10s %8s\n' arch kernel cpu loop/iter group cpb
echo "$kernels" | while read -r arch pkg sym loop outer iters bytes name; do
	[[ -z $arch ]] && continue
	if [[ -n $filter ]] && ! grep -Eq -- "$filter" <<<"$arch $pkg $sym $name"; then
		continue
	fi
	bin=$(binary "$arch" "$pkg")
	disasm "$bin" "$pkg" "$sym" "$arch" >"$tmp/dis"
	cut loop "$loop" <"$tmp/dis" >"$tmp/loop.s"
	if [[ $outer != - ]]; then
		cut outer "$outer" <"$tmp/dis" >"$tmp/outer.s"
	fi
	for cpu in $(cpus "$arch"); do
		l=$(cycles "$arch" "$cpu" "$tmp/loop.s")
		o=0
		if [[ $outer != - ]]; then
			o=$(cycles "$arch" "$cpu" "$tmp/outer.s")
		fi
		awk -v a="$arch" -v k="${name//_/ }" -v c="$cpu" -v l="$l" -v o="$o" -v i="$iters" -v b="$bytes" \
			'BEGIN { printf "%-6s %-22s %-12s %10.2f %10.2f %8.2f\n", a, k, c, l, o, (i * l + o) / b }'
	done
done
