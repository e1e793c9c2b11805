//go:build !purego

package gcm

import (
	"unsafe"

	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/par"
	"github.com/faelabs/fae/internal/words"
)

// The kernel contract is gcm_asm.go's. Every amd64 family keeps H in one
// layout, kernelKey, filled by initAESNI, or initSSE on the SSE family, or
// initVAES512 where VAES512 takes more powers than initAESNI fills (every
// CPU with VAES or VPCLMULQDQ has PCLMULQDQ too). A new family adds
// its kernel constant, its availability to chooseKernel and impl, its
// powers, and its cases to ghash, mulH, cryptBlocks and message.

// The VAES families need the aesni kernel's instructions too: they share
// mulHAESNI, and initAESNI up to ymmPowers. The zmm kernels' byte masks
// take BZHI (BMI2).
// The SSE family is the aesni one in legacy SSE encodings, for CPUs with
// AES-NI and PCLMULQDQ but no AVX (Westmere, the Atoms up to Tremont); it
// never runs a VEX instruction, and runs only where aesni cannot.
var (
	useSSE     = cpu.X86HasAESNI && cpu.X86HasPCLMULQDQ
	useAESNI   = useSSE && cpu.X86HasAVX
	useVAES256 = useAESNI && cpu.X86HasVAES256 && cpu.X86HasVPCLMULQDQ256
	useVAES512 = useAESNI && cpu.X86HasVAES512 && cpu.X86HasVPCLMULQDQ512 && cpu.X86HasBMI2
)

func init() {
	impl.Register("gcm", "vaes512", &useVAES512)
	impl.Register("gcm", "vaes256", &useVAES256)
	impl.Register("gcm", "aesni", &useAESNI)
	impl.Register("gcm", "aesni-sse", &useSSE)
}

// kernel names a kernel family. Every amd64 family has message kernels
// (gcm_asm.go).
type kernel int

const (
	genericKernel kernel = iota
	aesniKernel          // AES-NI and PCLMULQDQ with AVX encodings, 8 blocks stitched (gcm_amd64.s)
	sseKernel            // the same in legacy SSE encodings
	vaes256Kernel        // VAES and VPCLMULQDQ on ymm, AVX2, 16 blocks stitched
	vaes512Kernel        // VAES and VPCLMULQDQ on zmm, AVX-512, 32 blocks stitched
)

// powers[k] is how many powers of H family k multiplies by: a group's, and
// with message kernels one more, for the lengths block after a tail of a
// group less a byte; the VAES message kernels hash their last group and
// tail with one reduction, so two groups and one.
var powers = [...]int{aesniKernel: 9, sseKernel: 9, vaes256Kernel: 33, vaes512Kernel: 65}

// chooseKernel returns the fastest family enabled.
func chooseKernel() kernel {
	switch {
	case useVAES512:
		return vaes512Kernel
	case useVAES256:
		return vaes256Kernel
	case useAESNI:
		return aesniKernel
	case useSSE:
		return sseKernel
	}
	return genericKernel
}

// numPowers is how many powers of H kernelKey holds (initAESNI fills up to
// ymmPowers of them, initVAES512 all), and karaPowers of how many it
// holds Karatsuba operands, for the xmm kernels: the VAES kernels take
// none.
const (
	numPowers  = 65
	ymmPowers  = 33
	karaPowers = 9
)

// kernelKey holds H^numPowers..H^1 for the carry-less-multiply kernels, then
// the Karatsuba operands of H^karaPowers..H^1: key[numPowers-k] is H^k and
// key[numPowers+karaPowers-k] the XOR of its two halves, in both halves. Highest
// first, block i of a group of g blocks, multiplied by H^(g-i), finds its
// power at index numPowers-g+i, and vector loads match consecutive blocks.
// A power p is stored as p·x^-1 mod P, bit-reflected, as a 128-bit
// little-endian integer: the form in which the product of a byte-reversed
// block and a stored power, by PCLMULQDQ, is their field product, reflected,
// with no shift (Gueron and Kounavis, "Intel Carry-Less Multiplication
// Instruction and its Usage for Computing the GCM Mode", 2014).
type kernelKey [numPowers + karaPowers][16]byte

//go:noescape
func initAESNI(h0, h1 uint64, key *kernelKey, n int)

//go:noescape
func ghashAESNI(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func mulHAESNI(key *kernelKey, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func openAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealMsgAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func openMsgAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func initSSE(h0, h1 uint64, key *kernelKey, n int)

//go:noescape
func ghashSSE(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func mulHSSE(key *kernelKey, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealSSE(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func openSSE(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealMsgSSE(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func openMsgSSE(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func ghashVAES256(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealVAES256(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func openVAES256(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealMsgVAES256(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func openMsgVAES256(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func initVAES512(h0, h1 uint64, key *kernelKey)

//go:noescape
func ghashVAES512(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealVAES512(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func openVAES512(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealMsgVAES512(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

//go:noescape
func openMsgVAES512(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)

func (a *AEAD) initKernel(h words.Block, most int) {
	a.kern = chooseKernel()
	if a.kern == genericKernel {
		return
	}
	lo, hi := kernelH(h)
	// most blocks of message and associated data (and the lengths block)
	// need at most H^(most+1).
	n := min(powers[a.kern], max(most+1, 2))
	switch {
	case a.kern == sseKernel:
		initSSE(lo, hi, &a.key, n)
	case n > ymmPowers:
		initVAES512(lo, hi, &a.key)
	default:
		initAESNI(lo, hi, &a.key, n)
	}
}

// ghash absorbs the whole blocks of src (at least one) into y.
func (a *AEAD) ghash(y *words.Block, src []byte) {
	n := len(src) / blockSize
	switch a.kern {
	case aesniKernel:
		y.W0, y.W1 = ghashAESNI(&a.key, &src[0], n, y.W0, y.W1)
	case sseKernel:
		y.W0, y.W1 = ghashSSE(&a.key, &src[0], n, y.W0, y.W1)
	case vaes256Kernel:
		y.W0, y.W1 = ghashVAES256(&a.key, &src[0], n, y.W0, y.W1)
	case vaes512Kernel:
		y.W0, y.W1 = ghashVAES512(&a.key, &src[0], n, y.W0, y.W1)
	default:
		a.h.update(y, src)
	}
}

// mulH returns y·H.
func (a *AEAD) mulH(y words.Block) words.Block {
	switch a.kern {
	case genericKernel:
		return a.h.mulBlock(y)
	case sseKernel:
		y.W0, y.W1 = mulHSSE(&a.key, y.W0, y.W1)
	default:
		y.W0, y.W1 = mulHAESNI(&a.key, y.W0, y.W1)
	}
	return y
}

// cryptBlocks seals (sealOp) or opens (openOp) whole blocks, at least one,
// from counter c of j, absorbing the ciphertext into y: on the family's
// fused kernel with fae's AES, else by the cipher's counter mode and the
// family's ghash.
func (a *AEAD) cryptBlocks(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	if a.kind != aesCipher || a.kern == genericKernel {
		a.cryptGeneric(o, dst, src, j, c, y)
		return
	}
	x, n := j.at(c), len(src)/blockSize
	nr, rk, d, s := a.block.Rounds(), a.block.EncKeys(), &dst[0], &src[0]
	switch {
	case a.kern == vaes512Kernel && o == sealOp:
		y.W0, y.W1 = sealVAES512(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case a.kern == vaes512Kernel:
		y.W0, y.W1 = openVAES512(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case a.kern == vaes256Kernel && o == sealOp:
		y.W0, y.W1 = sealVAES256(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case a.kern == vaes256Kernel:
		y.W0, y.W1 = openVAES256(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case a.kern == sseKernel && o == sealOp:
		y.W0, y.W1 = sealSSE(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case a.kern == sseKernel:
		y.W0, y.W1 = openSSE(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	case o == sealOp:
		y.W0, y.W1 = sealAESNI(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	default:
		y.W0, y.W1 = openAESNI(nr, rk, &a.key, d, s, n, x.W0, x.W1, y.W0, y.W1)
	}
}

// hasMessage reports whether a message kernel takes a message of n bytes
// with adLen bytes of associated data: the cipher must be fae's AES, and
// both must fit a kernel call and not be for WithParallelism to split.
func (a *AEAD) hasMessage(n, adLen int) bool {
	const most = maxKernelBlocks * blockSize
	return a.kern != genericKernel && a.kind == aesCipher && n <= most && adLen <= most &&
		par.Goroutines(a.parallelism, max(n, adLen)) == 1
}

// message seals (sealOp) or opens (openOp) a whole message, src to dst, in
// one call of the family's message kernel and returns the full tag, if
// hasMessage; else it returns false.
func (a *AEAD) message(o op, dst, src, ad []byte, j counter) (words.Block, bool) {
	if !a.hasMessage(len(src), len(ad)) {
		return words.Block{}, false
	}
	x := j.at(j.c)
	nr, rk, d, s, ap := a.block.Rounds(), a.block.EncKeys(), unsafe.SliceData(dst), unsafe.SliceData(src), unsafe.SliceData(ad)
	var t words.Block
	switch n := len(src); {
	case a.kern == vaes512Kernel && o == sealOp:
		t.W0, t.W1 = sealMsgVAES512(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case a.kern == vaes512Kernel:
		t.W0, t.W1 = openMsgVAES512(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case a.kern == vaes256Kernel && o == sealOp:
		t.W0, t.W1 = sealMsgVAES256(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case a.kern == vaes256Kernel:
		t.W0, t.W1 = openMsgVAES256(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case a.kern == sseKernel && o == sealOp:
		t.W0, t.W1 = sealMsgSSE(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case a.kern == sseKernel:
		t.W0, t.W1 = openMsgSSE(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	case o == sealOp:
		t.W0, t.W1 = sealMsgAESNI(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	default:
		t.W0, t.W1 = openMsgAESNI(nr, rk, &a.key, d, s, n, ap, len(ad), x.W0, x.W1)
	}
	return t, true
}
