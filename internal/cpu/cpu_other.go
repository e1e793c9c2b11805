//go:build purego || !(amd64 || arm64 || arm)

package cpu

// asm is false where fae has no assembly kernels, or they are turned off.
const asm = false

func hasVAES() bool       { return false }
func hasVPCLMULQDQ() bool { return false }
