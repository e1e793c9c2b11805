package gpu

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
	"github.com/faelabs/fae/ocb"
	"github.com/faelabs/fae/raocb"
)

// The modes' host side: the GPU takes the whole blocks, the CPU the
// per-message steps (nonce, offsets at the ends, final partial block, tag)
// with fae's AES, as the CPU packages ctr, ocb and raocb do, so the output
// is theirs byte for byte: the nonce formatting, offsets, padding and limits
// are internal/ocbmode's, which ocb and raocb use too. When the device
// fails during a call, the call completes on those packages (fallback.go).

// maxLaunchBlocks bounds the blocks of one engine.run, whose block indices
// are 32-bit; 1<<30 also fits a 32-bit int.
const maxLaunchBlocks = 1 << 30

type block = [16]byte

// xor16 is two 64-bit XORs: a batch's host steps take many, and
// subtle.XORBytes's call costs more than the work.
func xor16(x, y block) block {
	var z block
	binary.LittleEndian.PutUint64(z[:8], binary.LittleEndian.Uint64(x[:8])^binary.LittleEndian.Uint64(y[:8]))
	binary.LittleEndian.PutUint64(z[8:], binary.LittleEndian.Uint64(x[8:])^binary.LittleEndian.Uint64(y[8:]))
	return z
}

func encryptBlock(b *aes.Block, x block) block {
	b.Encrypt(x[:], x[:])
	return x
}

func encKeys(b *aes.Block) []byte { return b.EncKeys()[:16*(b.Rounds()+1)] }
func decKeys(b *aes.Block) []byte { return b.DecKeys()[:16*(b.Rounds()+1)] }

// keying is what the kernels take of a key.
type keying struct {
	b      *aes.Block
	tables bool
	// slices is the bitsliced kernels' part of aux, from auxKeys on; nil
	// with the table kernels.
	slices []byte
}

// newKeying returns b's keying under cfg; extra are RAOCB's R1 and R2.
func newKeying(b *aes.Block, cfg config, extra ...block) keying {
	if cfg.tables {
		return keying{b: b, tables: true}
	}
	return keying{b: b, slices: sliceKeys(encKeys(b), extra...)}
}

// sliceKeys returns the bitsliced round keys (sliced.go): the 16-byte keys
// of keys, then extra, each bit widened to a 32-bit slice, with 0x63 added
// to every byte of each but the first.
func sliceKeys(keys []byte, extra ...block) []byte {
	out := make([]byte, auxTotal-auxKeys)
	for _, x := range extra {
		keys = append(keys[:len(keys):len(keys)], x[:]...)
	}
	for i := range len(keys) / 16 {
		r := i
		if i >= len(keys)/16-len(extra) {
			r = auxR1 + i - (len(keys)/16 - len(extra))
		}
		for j := range 16 {
			x := keys[16*i+j]
			if r > 0 {
				x ^= 0x63
			}
			for t := range 8 {
				binary.LittleEndian.PutUint32(out[r*sliceBytes+4*(8*j+t):], -uint32(x>>t&1))
			}
		}
	}
	return out
}

// kernel returns the kernel of o and m for this key.
func (k *keying) kernel(o op, m maskKind) kernel {
	if k.tables {
		return kernel{op: o, mask: m, rounds: k.b.Rounds()}
	}
	return kernel{op: o, mask: m, sliced: true}
}

// params returns p_k for op o: the round keys of the table kernels (the
// equivalent inverse cipher's to decrypt) or the bitsliced kernels' number
// of rounds, then consts.
func (k *keying) params(o op, consts ...block) *[kBytes]byte {
	switch {
	case !k.tables:
		var r [4]byte
		binary.LittleEndian.PutUint32(r[:], uint32(k.b.Rounds()))
		return kernelParams(r[:], consts...)
	case o == opDec:
		return kernelParams(decKeys(k.b), consts...)
	}
	return kernelParams(encKeys(k.b), consts...)
}

// aux returns the kernels' aux: tables (OCB's, or nil), then the
// bitsliced round keys where they are used.
func (k *keying) aux(tables []byte) []byte {
	if k.tables {
		return tables
	}
	a := make([]byte, auxKeys, auxTotal)
	copy(a, tables)
	return append(a, k.slices...)
}

// kernelParams is the kernels' p_k: the round keys, then the constants.
func kernelParams(keys []byte, consts ...block) *[kBytes]byte {
	var k [kBytes]byte
	copy(k[:], keys)
	for i, c := range consts {
		copy(k[kConst+16*i:], c[:])
	}
	return &k
}

// ctrStream is AES-CTR with a 128-bit big-endian counter that wraps, as
// crypto/cipher.NewCTR and fae's ctr package.
type ctrStream struct {
	e   *engine
	b   *aes.Block
	key keying
	aux []byte
	ctr block // next counter block
	ks  block // keystream of the block before ctr
	off int   // bytes of ks already used
}

func newCTR(e *engine, key, iv []byte, cfg config) (cipher.Stream, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	if len(iv) != aes.BlockSize {
		return nil, errors.New("gpu: IV length must equal the block size (16 bytes)")
	}
	s := &ctrStream{e: e, b: b, key: newKeying(b, cfg), off: aes.BlockSize}
	s.aux = s.key.aux(nil)
	copy(s.ctr[:], iv)
	return s, nil
}

// XORKeyStream XORs src with the keystream, as cipher.Stream.
func (s *ctrStream) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("gpu: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("gpu: invalid buffer overlap")
	}
	if s.off < aes.BlockSize {
		n := subtle.XORBytes(dst, src, s.ks[s.off:])
		s.off += n
		dst, src = dst[n:], src[n:]
	}
	k := s.key.kernel(opCTR, maskNone)
	for len(src) >= aes.BlockSize {
		n := min(len(src)/aes.BlockSize, maxLaunchBlocks)
		var c0 block
		hi, lo := binary.BigEndian.Uint64(s.ctr[:8]), binary.BigEndian.Uint64(s.ctr[8:])
		binary.LittleEndian.PutUint64(c0[:8], hi)
		binary.LittleEndian.PutUint64(c0[8:], lo)
		if _, done, err := s.e.run(k, s.aux, s.key.params(opCTR, c0), dst[:16*n], src[:16*n], 0); err != nil {
			// What was delivered is right; the CPU does the rest.
			fellBack(err)
			c := s.ctr
			addCounter(&c, uint64(done/16))
			s.b.XORKeyStreamAt(dst[done:16*n], src[done:16*n], &c)
		}
		addCounter(&s.ctr, uint64(n))
		dst, src = dst[16*n:], src[16*n:]
	}
	if len(src) > 0 {
		s.ks = encryptBlock(s.b, s.ctr)
		addCounter(&s.ctr, 1)
		s.off = subtle.XORBytes(dst, src, s.ks[:])
	}
}

// addCounter adds n to the 128-bit big-endian counter c.
func addCounter(c *block, n uint64) {
	lo, carry := bits.Add64(binary.BigEndian.Uint64(c[8:]), n, 0)
	binary.BigEndian.PutUint64(c[:8], binary.BigEndian.Uint64(c[:8])+carry)
	binary.BigEndian.PutUint64(c[8:], lo)
}

// AEAD parameters of NewOCB and NewRAOCB: the packages' defaults.
const (
	nonceSize = 12
	tagSize   = 16
)

var errOpen = errors.New("gpu: message authentication failed")

// A mode is what is OCB's or RAOCB's own in their host side (aead): the
// mask of a message is OCB's Offset_0 or RAOCB's B, from which the kernels
// and maskAt derive each block's.
type mode interface {
	// nonceMask returns the mask of the message under nonce, and adMask
	// that of the associated data.
	nonceMask(nonce []byte) block
	adMask() block
	// maskAt returns the mask of the block with index i of a message of
	// mask m: OCB's Offset_i, RAOCB's Δ(m, i).
	maskAt(m block, i uint64) block
	// blocks runs the single-message kernel of o over the whole blocks of
	// src, with run's results.
	blocks(o op, dst, src []byte, m block) (block, int, error)
	// pad returns the keystream of a message's final partial block after
	// full bytes of whole blocks.
	pad(m block, full int) block
	// adTail returns the AD's sum with its final partial block.
	adTail(ad []byte, sum block) block
	// tag returns the tag of a message of n bytes from its sums.
	tag(m block, n int, sum, h block) block
}

// aead is the host side of OCB and RAOCB: one message on the engine's
// single-message kernels, a batch on its batch kernels, and the CPU
// package of the same key where the device fails.
type aead struct {
	mode
	name     string // for panics
	kind     maskKind
	e        *engine
	b        *aes.Block
	ks       keying
	first    uint32 // the index of a message's first block
	batchAux []byte // the batch kernels' aux
	consts   []block
	cpu      batch.AEAD
	spec     batchutil.Spec
	// maxBlocks bounds the whole blocks of a text or of AD that the
	// kernels take: OCB's are numbered in 32 bits. Longer input, which
	// the mode allows, runs on cpu.
	maxBlocks uint64
}

func (a *aead) NonceSize() int { return nonceSize }
func (a *aead) Overhead() int  { return tagSize }

// batchRun runs the batch kernel of o over spans.
func (a *aead) batchRun(o op, spans []span) (int, error) {
	if len(spans) == 0 {
		return 0, nil
	}
	k := a.ks.kernel(o, a.kind)
	k.batch = true
	return a.e.runBatch(k, a.batchAux, a.ks.params(o, a.consts...), spans)
}

// tail processes in's final partial block, if any, into out, and returns
// the sum with it.
func (a *aead) tail(o op, out, in []byte, m block, sum block) block {
	full := len(in) &^ 15
	p := in[full:]
	if len(p) == 0 {
		return sum
	}
	pad := a.pad(m, full)
	// The plaintext's padding goes into the sum, before out overwrites
	// it where out is in.
	if o == opEnc {
		sum = xor16(sum, ocbmode.Padded(p).Bytes())
	}
	subtle.XORBytes(out[full:], p, pad[:])
	if o == opDec {
		sum = xor16(sum, ocbmode.Padded(out[full:len(in)]).Bytes())
	}
	return sum
}

// hash returns the associated data's sum, all of HASH but the tag's last
// XOR.
func (a *aead) hash(ad []byte) (block, error) {
	full := len(ad) &^ 15
	h, _, err := a.blocks(opHash, nil, ad[:full], a.adMask())
	return a.adTail(ad, h), err
}

// fits reports whether Seal takes a plaintext of n bytes with adLen bytes of
// associated data: whatever the CPU package takes.
func (a *aead) fits(n, adLen int) bool { return a.spec.Fits == nil || a.spec.Fits(n, adLen) }

// onDevice reports whether the kernels take a text of n bytes with adLen
// bytes of associated data.
func (a *aead) onDevice(n, adLen int) bool {
	return uint64(n)/16 <= a.maxBlocks && uint64(adLen)/16 <= a.maxBlocks
}

// batchOnDevice reports whether the kernels take every message of msgs.
func (a *aead) batchOnDevice(msgs []batch.Message) bool {
	for i := range msgs {
		if !a.onDevice(len(msgs[i].In), len(msgs[i].AD)) {
			return false
		}
	}
	return true
}

func (a *aead) checks(out, in, ad []byte) {
	if alias.InexactOverlap(out, in) {
		panic("gpu: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gpu: invalid buffer overlap of output and additional data")
	}
}

func (a *aead) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to " + a.name)
	}
	if !a.fits(len(plaintext), len(ad)) {
		panic("gpu: " + a.name + " message or associated data too long")
	}
	if !a.onDevice(len(plaintext), len(ad)) {
		return a.cpu.Seal(dst, nonce, plaintext, ad)
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+tagSize)
	a.checks(out, plaintext, ad)
	if err := a.seal(out, nonce, plaintext, ad); err != nil {
		fellBack(err)
		a.cpu.Seal(out[:0], nonce, plaintext, ad)
	}
	return ret
}

// seal is Seal on the GPU; when it fails, plaintext is as it was.
func (a *aead) seal(out, nonce, plaintext, ad []byte) error {
	// The AD first: it writes nothing that a failure would have to undo.
	h, err := a.hash(ad)
	if err != nil {
		return err
	}
	m := a.nonceMask(nonce)
	full := len(plaintext) &^ 15
	sp := span{dst: out[:full], src: plaintext[:full], mask: m, first: a.first}
	sum, done, err := a.blocks(opEnc, sp.dst, sp.src, m)
	if err != nil {
		a.undo(opEnc, []span{sp}, done)
		return err
	}
	sum = a.tail(opEnc, out, plaintext, m, sum)
	tag := a.tag(m, len(plaintext), sum, h)
	copy(out[len(plaintext):], tag[:])
	return nil
}

func (a *aead) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != nonceSize {
		panic("gpu: incorrect nonce length given to " + a.name)
	}
	if len(ciphertext) < tagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - tagSize
	if !a.fits(n, len(ad)) {
		return nil, errors.New("gpu: " + a.name + " message or associated data too long")
	}
	if !a.onDevice(n, len(ad)) {
		return a.cpu.Open(dst, nonce, ciphertext, ad)
	}
	ret, out := alias.SliceForAppend(dst, n)
	a.checks(out, ciphertext, ad)
	ok, err := a.open(out, nonce, ciphertext, ad)
	if err != nil {
		fellBack(err)
		if _, err := a.cpu.Open(out[:0], nonce, ciphertext, ad); err != nil {
			clear(out)
			return nil, err
		}
		return ret, nil
	}
	if !ok {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// open is Open on the GPU, whether the message authenticated; when it
// fails, ciphertext is as it was.
func (a *aead) open(out, nonce, ciphertext, ad []byte) (bool, error) {
	h, err := a.hash(ad)
	if err != nil {
		return false, err
	}
	m := a.nonceMask(nonce)
	n := len(ciphertext) - tagSize
	full := n &^ 15
	sp := span{dst: out[:full], src: ciphertext[:full], mask: m, first: a.first}
	sum, done, err := a.blocks(opDec, sp.dst, sp.src, m)
	if err != nil {
		a.undo(opDec, []span{sp}, done)
		return false, err
	}
	sum = a.tail(opDec, out, ciphertext[:n], m, sum)
	tag := a.tag(m, n, sum, h)
	return subtle.ConstantTimeCompare(tag[:], ciphertext[n:]) == 1, nil
}

// SealBatch seals every message as Seal would (batch.AEAD): the whole
// blocks of all messages, then of all AD, in as few launches as fit.
func (a *aead) SealBatch(msgs []batch.Message) {
	a.spec.CheckSeal(msgs)
	if !a.batchOnDevice(msgs) {
		a.cpu.SealBatch(msgs)
		return
	}
	if err := a.sealBatch(msgs); err != nil {
		fellBack(err)
		a.cpu.SealBatch(msgs)
	}
}

// msgSums are a message's mask and sums in a batch.
type msgSums struct{ mask, sum, h block }

// batchSpans returns the sums of each message and the spans of the whole
// blocks of their texts (the first n bytes of In, or none where n < 0)
// and their AD.
func (a *aead) batchSpans(msgs []batch.Message, n func(m *batch.Message) int) ([]msgSums, []span, []span) {
	st := make([]msgSums, len(msgs))
	forRanges(len(msgs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if n(&msgs[i]) >= 0 {
				st[i].mask = a.nonceMask(msgs[i].Nonce)
			}
		}
	})
	// Counted first: a batch of a million messages would otherwise grow
	// the slices through dozens of copies.
	nt, na := 0, 0
	for i := range msgs {
		if l := n(&msgs[i]); l >= 16 {
			nt++
		}
		if len(msgs[i].AD) >= 16 {
			na++
		}
	}
	text, ads := make([]span, 0, nt), make([]span, 0, na)
	for i := range msgs {
		m, s := &msgs[i], &st[i]
		l := n(m)
		if l < 0 {
			continue
		}
		if full := l &^ 15; full > 0 {
			text = append(text, span{dst: m.Out[:full], src: m.In[:full], mask: s.mask, first: a.first, sum: &s.sum})
		}
		if full := len(m.AD) &^ 15; full > 0 {
			ads = append(ads, span{src: m.AD[:full], mask: a.adMask(), first: a.first, sum: &s.h})
		}
	}
	return st, text, ads
}

func (a *aead) sealBatch(msgs []batch.Message) error {
	st, text, ads := a.batchSpans(msgs, func(m *batch.Message) int { return len(m.In) })
	if _, err := a.batchRun(opHash, ads); err != nil {
		return err
	}
	if done, err := a.batchRun(opEnc, text); err != nil {
		a.undo(opEnc, text, done)
		return err
	}
	forRanges(len(msgs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			m, s := &msgs[i], &st[i]
			sum := a.tail(opEnc, m.Out, m.In, s.mask, s.sum)
			tag := a.tag(s.mask, len(m.In), sum, a.adTail(m.AD, s.h))
			copy(m.Out[len(m.In):], tag[:])
		}
	})
	return nil
}

// OpenBatch opens every message as Open would (batch.AEAD), in as few
// launches as SealBatch.
func (a *aead) OpenBatch(msgs []batch.Message) bool {
	a.spec.CheckOpen(msgs)
	if !a.batchOnDevice(msgs) {
		return a.cpu.OpenBatch(msgs)
	}
	ok, err := a.openBatch(msgs)
	if err != nil {
		fellBack(err)
		return a.cpu.OpenBatch(msgs)
	}
	return ok
}

func (a *aead) openBatch(msgs []batch.Message) (bool, error) {
	st, text, ads := a.batchSpans(msgs, func(m *batch.Message) int {
		if n := len(m.In) - tagSize; n >= 0 && a.fits(n, len(m.AD)) {
			return n
		}
		return -1 // fails unread
	})
	if _, err := a.batchRun(opHash, ads); err != nil {
		return false, err
	}
	if done, err := a.batchRun(opDec, text); err != nil {
		a.undo(opDec, text, done)
		return false, err
	}
	var failed atomic.Bool
	forRanges(len(msgs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			m, s := &msgs[i], &st[i]
			n := len(m.In) - tagSize
			m.OK = false
			if n >= 0 && a.fits(n, len(m.AD)) {
				sum := a.tail(opDec, m.Out, m.In[:n], s.mask, s.sum)
				tag := a.tag(s.mask, n, sum, a.adTail(m.AD, s.h))
				m.OK = subtle.ConstantTimeCompare(tag[:], m.In[n:]) == 1
			}
			if !m.OK {
				clear(m.Out)
				failed.Store(true)
			}
		}
	})
	return !failed.Load(), nil
}

// forRanges calls f on ranges that cover [0, n), on all cores when n is
// large: a batch's per-message steps on the CPU (a few AES calls each)
// would otherwise cost more than the GPU's part.
func forRanges(n int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n/256)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range w {
		wg.Go(func() { f(i*n/w, (i+1)*n/w) })
	}
	wg.Wait()
}

// undo restores the input of the first done bytes of spans whose output
// overwrote it, in place, so that the CPU code can start over: op o's
// inverse, block by block.
func (a *aead) undo(o op, spans []span, done int) {
	for _, sp := range spans {
		if done <= 0 {
			return
		}
		n := min(done, len(sp.src))
		done -= n
		if n == 0 || &sp.dst[0] != &sp.src[0] {
			continue
		}
		for j := 0; j < n; j += 16 {
			d := a.maskAt(sp.mask, uint64(sp.first)+uint64(j/16))
			x := xor16(block(sp.dst[j:j+16]), d)
			if o == opEnc {
				a.b.Decrypt(x[:], x[:])
			} else {
				a.b.Encrypt(x[:], x[:])
			}
			x = xor16(x, d)
			copy(sp.dst[j:], x[:])
		}
	}
}

// ocbMode is AES-OCB3 (RFC 7253) with 12-byte nonces and 16-byte tags.
type ocbMode struct {
	e              *engine
	b              *aes.Block
	ks             *keying
	lStar, lDollar block
	l              ocbmode.L // L_0..L_31
}

// maxOCBBlocks keeps the kernels' block indices in 32 bits, where L_0..L_31
// suffice.
const maxOCBBlocks = 1<<32 - 1

func newOCB(e *engine, key []byte, cfg config) (batch.AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	cpu, err := ocb.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	// OCB3 limits no length (RFC 7253), and neither does package ocb.
	a := &aead{name: "OCB", kind: maskOCB, e: e, b: b, ks: newKeying(b, cfg), first: 1, cpu: cpu,
		spec: batchutil.Spec{Pkg: "gpu", NonceSize: nonceSize, TagSize: tagSize}, maxBlocks: maxOCBBlocks}
	m := &ocbMode{e: e, b: b, ks: &a.ks}
	m.lStar = encryptBlock(b, block{})
	lDollar, l := ocbmode.Ls(words.Load(m.lStar[:]))
	m.lDollar, m.l = lDollar.Bytes(), l
	a.mode = m
	a.batchAux = a.ks.aux(m.tables(nil))
	return a, nil
}

// nonceMask is Offset_0 of RFC 7253, Section 4.2.
func (a *ocbMode) nonceMask(nonce []byte) block {
	in, bottom := ocbmode.KtopInput(ocbmode.Nonce(nonce, tagSize))
	w0, w1 := a.b.EncryptWords(in.W0, in.W1)
	return ocbmode.Stretch(words.Block{W0: w0, W1: w1}, bottom).Bytes()
}

// adMask: HASH's offsets start from zero.
func (a *ocbMode) adMask() block { return block{} }

// maskAt returns Offset_i from Offset_0 through the Gray code of i, as
// the kernels do.
func (a *ocbMode) maskAt(off block, i uint64) block {
	return ocbmode.OffsetAt(&a.l, words.Load(off[:]), i).Bytes()
}

// tables returns the kernels' tables (ptx.go, maskOCB): L_j, M_j = L_{j+5}
// ^ L_4 and, for Offset_0 off0 unless nil (the batch kernels take each
// message's from their table), G_r = Offset_0 ^ the L_j of the low five
// bits of r's Gray code.
func (a *ocbMode) tables(off0 *block) []byte {
	aux := make([]byte, auxSize)
	for j := range a.l {
		copy(aux[auxL+16*j:], a.l[j][:])
		if j+5 < len(a.l) {
			m := xor16(a.l[j+5], a.l[4])
			copy(aux[auxM+16*j:], m[:])
		}
	}
	if off0 != nil {
		for r := range uint64(32) {
			g := a.maskAt(*off0, r)
			copy(aux[auxG+16*r:], g[:])
		}
	}
	return aux
}

// blocks runs an OCB kernel over the whole blocks of src (indices 1, 2,
// ...) from off0.
func (a *ocbMode) blocks(o op, dst, src []byte, off0 block) (block, int, error) {
	if len(src) == 0 {
		return block{}, 0, nil
	}
	return a.e.run(a.ks.kernel(o, maskOCB), a.ks.aux(a.tables(&off0)), a.ks.params(o), dst, src, 1)
}

// pad is the keystream of the final partial block after full bytes.
func (a *ocbMode) pad(off0 block, full int) block {
	return encryptBlock(a.b, xor16(a.maskAt(off0, uint64(full/16)), a.lStar))
}

func (a *ocbMode) adTail(ad []byte, sum block) block {
	full := len(ad) &^ 15
	rest := ad[full:]
	if len(rest) == 0 {
		return sum
	}
	off := xor16(a.maskAt(block{}, uint64(full/16)), a.lStar)
	return xor16(sum, encryptBlock(a.b, xor16(ocbmode.Padded(rest).Bytes(), off)))
}

func (a *ocbMode) tag(off0 block, n int, sum, h block) block {
	off := a.maskAt(off0, uint64(n/16))
	if n%16 != 0 {
		off = xor16(off, a.lStar)
	}
	return xor16(encryptBlock(a.b, xor16(xor16(sum, off), a.lDollar)), h)
}

// raocbMode is RAOCB (docs/raocb.md, fae profile v1) with 12-byte nonces
// and 16-byte tags.
type raocbMode struct {
	e          *engine
	b          *aes.Block
	ks         *keying
	aux        []byte
	r1, r2, la block
}

func newRAOCB(e *engine, key []byte, cfg config) (batch.AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	cpu, err := raocb.New(key)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	m := &raocbMode{e: e, b: b}
	m.r1 = encryptBlock(b, block{2})
	m.r2 = encryptBlock(b, block{3})
	m.la = encryptBlock(b, block{4})
	a := &aead{mode: m, name: "RAOCB", kind: maskRAOCB, e: e, b: b, ks: newKeying(b, cfg, m.r1, m.r2), cpu: cpu,
		consts:    []block{{}, m.r1, m.r2},
		spec:      batchutil.Spec{Pkg: "gpu", NonceSize: nonceSize, TagSize: tagSize, Fits: ocbmode.Fits},
		maxBlocks: ocbmode.MaxIndex}
	m.ks = &a.ks
	m.aux = a.ks.aux(nil)
	a.batchAux = m.aux
	return a, nil
}

// nonceMask is B = E(Nonce).
func (a *raocbMode) nonceMask(nonce []byte) block {
	n := ocbmode.Nonce(nonce, tagSize)
	w0, w1 := a.b.EncryptWords(n.W0, n.W1)
	return words.Block{W0: w0, W1: w1}.Bytes()
}

func (a *raocbMode) adMask() block { return a.la }

// maskAt is Δ(x, i) = AESENC(AESENC(x ⊞ i, R1), R2).
func (a *raocbMode) maskAt(x block, i uint64) block {
	x = ocbmode.Add(words.Load(x[:]), i).Bytes()
	aes.Round(x[:], x[:], a.r1[:])
	aes.Round(x[:], x[:], a.r2[:])
	return x
}

func (a *raocbMode) encryptMasked(base block, i uint64, in block) block {
	return encryptBlock(a.b, xor16(in, a.maskAt(base, i)))
}

func (a *raocbMode) blocks(o op, dst, src []byte, base block) (block, int, error) {
	if len(src) == 0 {
		return block{}, 0, nil
	}
	return a.e.run(a.ks.kernel(o, maskRAOCB), a.aux, a.ks.params(o, base, a.r1, a.r2), dst, src, 0)
}

func (a *raocbMode) pad(b block, full int) block {
	return encryptBlock(a.b, a.maskAt(b, ocbmode.PartialIndex(uint64(full))))
}

func (a *raocbMode) adTail(ad []byte, sum block) block {
	full := len(ad) &^ 15
	if rest := ad[full:]; len(rest) > 0 {
		sum = xor16(sum, a.encryptMasked(a.la, ocbmode.PartialIndex(uint64(full)), ocbmode.Padded(rest).Bytes()))
	}
	return sum
}

func (a *raocbMode) tag(b block, n int, sum, h block) block {
	return xor16(a.encryptMasked(b, ocbmode.TagIndex(uint64(n)), sum), h)
}
