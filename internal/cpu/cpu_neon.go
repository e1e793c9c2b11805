//go:build !purego && (arm64 || arm)

package cpu

const asm = true

// hasVAES and hasVPCLMULQDQ are x86 features.
func hasVAES() bool       { return false }
func hasVPCLMULQDQ() bool { return false }
