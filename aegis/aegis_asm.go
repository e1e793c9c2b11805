//go:build !purego && (amd64 || arm64)

package aegis

import "math/bits"

// The glue between the state and the assembly kernels of amd64 and arm64,
// which share the job contract; each architecture's file provides choose
// and kernel.run.

// The kernel operations beyond state.blocks'.
const (
	opInit  = 3 // Init into s
	opFinal = 4 // Finalize's updates on s, the lanes' tags to tags
	opSeal  = 5 // a whole message, Enc
	opOpen  = 6 // a whole message, Dec
)

// job holds a kernel's operands; the assembly reads the fields at fixed
// offsets (TestJobLayout checks them). Per-lane pointers point at lane 0;
// the kernel adds off.
type job struct {
	s       *byte // the state words, ws bytes apart
	ws      int   // word size, all lanes
	off     int   // the offset of the lane group (one lane on arm64)
	ctx     *byte // Init's context blocks
	key     *byte
	nonce   *byte
	src     *byte // n whole blocks, step bytes apart
	dst     *byte
	n       int
	step    int
	ad      *byte // adN whole blocks of associated data, step bytes apart
	adN     int
	adLast  *byte // the zero-padded last block of associated data, or nil
	last    *byte // the zero-padded last block of the message, or nil
	mask    *byte // 0xff on the bytes of last that are ciphertext
	tags    *byte // the lanes' tags (see tags); the whole tag for seal and open
	tagSize int
	u       [16]byte // Finalize's lengths
}

// blocks applies op to the n blocks of src, each rate bytes long and step
// bytes apart (0: the same block n times); enc and dec write their output
// at the same offsets of dst, which may be src itself.
func (st *state) blocks(op int, dst, src []byte, n, step int) {
	k, width := choose(st.v)
	if k == kGeneric {
		st.blocksGeneric(op, dst, src, n, step)
		return
	}
	var j job
	j.s, j.ws, j.src, j.n, j.step = &st.s[0], st.v.wordSize(), &src[0], n, step
	if dst != nil {
		j.dst = &dst[0]
	}
	k.run(op, &j, st.v.lanes, width)
}

// initState runs Init(key, nonce) on st, whose variant is set.
func (st *state) initState(key, nonce []byte) {
	k, width := choose(st.v)
	if k == kGeneric {
		st.initGeneric(key, nonce)
		return
	}
	var j job
	j.s, j.ws, j.ctx, j.key, j.nonce = &st.s[0], st.v.wordSize(), &st.v.ctx[0], &key[0], &nonce[0]
	k.run(opInit, &j, st.v.lanes, width)
}

// final runs Finalize's seven updates, Update(t, t) (or Update(t)) with t
// the lanes' word 2 (AEGIS-128*) or 3 (AEGIS-256*) XOR u, computed once
// before the first update, and writes the lanes' tags of tagSize bytes.
func (st *state) final(t *tags, u block, tagSize int) {
	k, width := choose(st.v)
	if k == kGeneric {
		st.finalGeneric(t, u, tagSize)
		return
	}
	var j job
	j.s, j.ws, j.tags, j.tagSize = &st.s[0], st.v.wordSize(), &t[0], tagSize
	u.put(j.u[:])
	k.run(opFinal, &j, st.v.lanes, width)
}

// mask holds maxRate bytes 0xff and then maxRate zeros: the mask of a
// final block of n bytes starts at maxRate-n.
var mask = func() (m [2 * maxRate]byte) {
	for i := range maxRate {
		m[i] = 0xff
	}
	return m
}()

// cryptJob is crypt (see the architectures' files), checked, with kernel
// k, which takes width lanes per call, or the portable code: the kernels
// keep the state in registers from Init to the tag, once per lane group,
// on a job that cryptJob fills itself. The first group stores its lanes'
// tags to tag, the others XOR theirs in; the partial last blocks go as
// zero-padded copies. tag is a.tagSize bytes.
//
// The job is filled field by field: a composite literal would be built
// aside and copied with wide loads that stall on its narrow stores.
func (a *AEAD) cryptJob(k kernel, width int, dst, nonce, src, ad []byte, decrypt bool, tag []byte) {
	v, key := a.v, a.key[:a.v.keySize]
	if k == kGeneric {
		cryptGeneric(v, key, nonce, ad, dst, src, decrypt, tag)
		return
	}
	op := opSeal
	if decrypt {
		op = opOpen
	}
	// The rate is a power of two: a block count is a shift, where full/r
	// compiles to a 64-bit division.
	r := v.rate()
	shift := bits.TrailingZeros(uint(r))
	var j job
	j.ws, j.step = v.wordSize(), r
	j.ctx, j.key, j.nonce = &v.ctx[0], &key[0], &nonce[0]
	j.tags, j.tagSize = &tag[0], len(tag)
	block{uint64(len(ad)) * 8, uint64(len(src)) * 8}.put(j.u[:])
	if full := len(ad) &^ (r - 1); full > 0 {
		j.ad, j.adN = &ad[0], full>>shift
	}
	if rest := len(ad) & (r - 1); rest > 0 {
		var b [maxRate]byte
		copy(b[:], ad[len(ad)-rest:])
		j.adLast = &b[0]
	}
	full := len(src) &^ (r - 1)
	if full > 0 {
		j.src, j.dst, j.n = &src[0], &dst[0], full>>shift
	}
	rest := len(src) - full
	if rest == 0 {
		k.run(op, &j, v.lanes, width)
		return
	}
	var last [maxRate]byte
	copy(last[:], src[full:])
	j.last, j.mask = &last[0], &mask[maxRate-rest]
	k.run(op, &j, v.lanes, width)
	copy(dst[full:], last[:rest])
}
