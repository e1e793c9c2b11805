package cpu

import "testing"

func TestFeatures(t *testing.T) {
	t.Logf("AES-NI %v AVX2 %v VAES256 %v VPCLMULQDQ256 %v AVX-512 %v VBMI2 %v VAES512 %v VPCLMULQDQ512 %v ARM64 AES %v PMULL %v ARM NEON %v",
		X86HasAESNI, X86HasAVX2, X86HasVAES256, X86HasVPCLMULQDQ256, X86HasAVX512, X86HasAVX512VBMI2, X86HasVAES512, X86HasVPCLMULQDQ512, ARM64HasAES, ARM64HasPMULL, ARMHasNEON)
	if X86HasVAES512 && !X86HasVAES256 && X86HasAVX2 {
		t.Error("VAES reported for zmm but not ymm")
	}
	if X86HasVPCLMULQDQ512 && !X86HasVPCLMULQDQ256 && X86HasAVX2 {
		t.Error("VPCLMULQDQ reported for zmm but not ymm")
	}
}
