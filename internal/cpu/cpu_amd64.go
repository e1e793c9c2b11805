//go:build !purego

package cpu

const asm = true

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// hasVAES reads CPUID leaf 7 ECX bit 9 itself: x/sys/cpu reports VAES only
// together with AVX-512.
func hasVAES() bool {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(7, 0)
	return ecx&(1<<9) != 0
}
