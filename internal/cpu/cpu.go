// Package cpu reports, once at start-up, the CPU features fae's kernels use.
//
// The values never change after init; tests choose kernels through
// internal/impl instead of editing these. With the purego build tag every
// feature reads false, so nothing can select an assembly kernel.
package cpu

import "golang.org/x/sys/cpu"

var (
	// X86HasAESNI: AES-NI and SSE4.1 (the xmm kernels).
	X86HasAESNI = asm && cpu.X86.HasAES && cpu.X86.HasSSE41 && cpu.X86.HasSSSE3
	// X86HasAVX includes OS support for ymm state.
	X86HasAVX = asm && cpu.X86.HasAVX
	// X86HasPCLMULQDQ: carry-less multiplication on xmm registers (GHASH).
	X86HasPCLMULQDQ = asm && cpu.X86.HasPCLMULQDQ
	// X86HasBMI2: SHLX and friends.
	X86HasBMI2 = asm && cpu.X86.HasBMI2
	// X86HasAVX2 includes OS support for ymm state.
	X86HasAVX2 = asm && cpu.X86.HasAVX2
	// X86HasVAES256: VAES on ymm registers, which needs AVX2 but not AVX-512.
	X86HasVAES256 = asm && cpu.X86.HasAVX2 && hasVAES()
	// X86HasAVX512: F, BW and VL, with OS support for zmm state.
	X86HasAVX512 = asm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL
	// X86HasAVX512VBMI2: AVX-512's VBMI2 (funnel shifts and byte
	// compress/expand), present on every CPU with VAES on zmm registers so
	// far.
	X86HasAVX512VBMI2 = X86HasAVX512 && cpu.X86.HasAVX512VBMI2
	// X86HasVAES512: VAES on zmm registers.
	X86HasVAES512 = X86HasAVX512 && cpu.X86.HasAVX512VAES
	// X86HasVPCLMULQDQ256: VPCLMULQDQ on ymm registers, which needs AVX2
	// but not AVX-512.
	X86HasVPCLMULQDQ256 = asm && cpu.X86.HasAVX2 && hasVPCLMULQDQ()
	// X86HasVPCLMULQDQ512: VPCLMULQDQ on zmm registers.
	X86HasVPCLMULQDQ512 = X86HasAVX512 && cpu.X86.HasAVX512VPCLMULQDQ

	// ARM64HasAES: the ARMv8 AESE/AESD/AESMC/AESIMC instructions.
	ARM64HasAES = asm && cpu.ARM64.HasAES
	// ARM64HasPMULL: the 64-bit carry-less multiplications PMULL and PMULL2
	// (GHASH).
	ARM64HasPMULL = asm && cpu.ARM64.HasPMULL

	// ARMHasNEON: 32-bit ARM's Advanced SIMD.
	ARMHasNEON = asm && cpu.ARM.HasNEON
)
