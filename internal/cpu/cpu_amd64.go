//go:build !purego

package cpu

const asm = true

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// hasVAES and hasVPCLMULQDQ read CPUID leaf 7 ECX bits 9 and 10 themselves:
// x/sys/cpu reports them only together with AVX-512.
func hasVAES() bool       { return leaf7ECX()&(1<<9) != 0 }
func hasVPCLMULQDQ() bool { return leaf7ECX()&(1<<10) != 0 }

func leaf7ECX() uint32 {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return 0
	}
	_, _, ecx, _ := cpuid(7, 0)
	return ecx
}
