package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/guard"
)

// ipiSizes are the packet sizes of the Internet Performance Index.
var ipiSizes = []int{44, 552, 576, 1500}

// TestBatch runs the batch suite on a: SealBatch and OpenBatch against Seal
// and Open of each message alone, over batches of 0 to 70 messages of
// random lengths up to 9000 bytes (the IPI's sizes among them) and
// associated data up to 100 bytes, in place and not; OpenBatch on tampered
// and short messages scattered through a batch; the panics, with no output
// written, on a wrong nonce or Out length and on overlap; no allocations;
// concurrent batches; and guard pages around every buffer of every
// message. On each of others (a at its other tag and nonce sizes) it runs
// the comparison with single calls on fewer batches. The options are
// TestAEAD's; MaxMessageSize applies to every AEAD, and Sparse takes the
// -short grids.
func TestBatch(t *testing.T, a batch.AEAD, others []batch.AEAD, opts ...Option) {
	c := newConfig(opts)
	counts := make([]int, 71)
	for i := range counts {
		counts[i] = i
	}
	few := []int{0, 1, 3, 17}
	if c.short {
		counts, few = []int{0, 1, 2, 5, 16, 33, 70}, []int{3, 17}
	}
	t.Run("Agree", func(t *testing.T) { testBatchAgree(t, a, c, counts) })
	for _, o := range others {
		t.Run(fmt.Sprintf("Agree/nonce%d-tag%d", o.NonceSize(), o.Overhead()), func(t *testing.T) { testBatchAgree(t, o, c, few) })
	}
	t.Run("Tamper", func(t *testing.T) { testBatchTamper(t, a, c) })
	t.Run("Panics", func(t *testing.T) { testBatchPanics(t, a) })
	t.Run("Concurrent", func(t *testing.T) { TestBatchConcurrent(t, a, opts...) })
	t.Run("GuardPages", func(t *testing.T) { testBatchGuard(t, a, c) })
	if !c.allowAllocs {
		t.Run("Allocs", func(t *testing.T) { TestBatchNoAllocs(t, a) })
	}
}

// message is one message of a test batch, with its plaintext and sealed
// form.
type message struct {
	nonce, ad, pt, ct []byte
	inPlace           bool
}

// randMessages returns n messages under a with random nonces, lengths and
// associated data, sealed one by one with Seal: a quarter of the IPI's
// sizes, the rest mostly short (the lengths whose blocks and lanes are
// partly filled), one in eight up to 9000 bytes.
func randMessages(r *rand.ChaCha8, a batch.AEAD, c config, n int) []message {
	ms := make([]message, n)
	for i := range ms {
		var l int
		switch r.Uint64() % 8 {
		case 0, 1:
			l = ipiSizes[r.Uint64()%uint64(len(ipiSizes))]
		case 2, 3, 4:
			l = int(r.Uint64() % 101)
		case 5, 6:
			l = int(r.Uint64() % 301)
		default:
			l = int(r.Uint64() % 9001)
		}
		if c.maxMessage > 0 {
			l = min(l, c.maxMessage)
		}
		m := &ms[i]
		m.nonce, m.pt, m.ad = randBytes(r, a.NonceSize()), randBytes(r, l), randBytes(r, int(r.Uint64()%101))
		m.inPlace = r.Uint64()%2 == 0
		m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
	}
	return ms
}

// sealBatch returns the batch that seals ms, in fresh buffers: in place or
// not, as each message says. OK alternates, for SealBatch to leave alone.
func sealBatch(ms []message, overhead int) []batch.Message {
	b := make([]batch.Message, len(ms))
	for i, m := range ms {
		in := append(make([]byte, 0, len(m.pt)+overhead), m.pt...)
		out := in[:len(m.pt)+overhead]
		if !m.inPlace {
			out = bytes.Repeat([]byte{sentinel}, len(out))
		}
		b[i] = batch.Message{Nonce: m.nonce, AD: m.ad, In: in, Out: out, OK: i%2 == 0}
	}
	return b
}

// openBatch returns the batch that opens ms, as sealBatch does. OK is the
// opposite of what OpenBatch should set.
func openBatch(ms []message, overhead int) []batch.Message {
	b := make([]batch.Message, len(ms))
	for i, m := range ms {
		in := bytes.Clone(m.ct)
		out := in[:max(len(in)-overhead, 0)]
		if !m.inPlace {
			out = bytes.Repeat([]byte{sentinel}, len(out))
		}
		b[i] = batch.Message{Nonce: m.nonce, AD: m.ad, In: in, Out: out}
	}
	return b
}

func testBatchAgree(t *testing.T, a batch.AEAD, c config, counts []int) {
	r := newRand()
	for _, n := range counts {
		agreeBatch(t, a, randMessages(r, a, c, n))
	}
}

// A Shape is the lengths of one message of a batch: its text and
// associated data.
type Shape struct{ Text, AD int }

// FuzzBatch fuzzes batches: it compares SealBatch and OpenBatch with
// single calls (TestBatchShapes) for batches whose shapes come from the
// fuzzer's bytes, three a message and at most 40 messages (text up to 4
// KiB, associated data up to 255 bytes), on each path each visits (an
// impltest.Paths' Each), under the AEAD newAEAD makes from the fuzzer's
// sizes byte.
func FuzzBatch[A batch.AEAD](f *testing.F, each func(func(string)), newAEAD func(sizes uint8) (A, error)) {
	f.Add([]byte{0, 0, 0, 1, 0, 1, 17, 0, 30, 220, 5, 0}, uint8(0))
	f.Add(bytes.Repeat([]byte{15, 1, 200}, 20), uint8(146))
	f.Fuzz(func(t *testing.T, b []byte, sizes uint8) {
		var shapes []Shape
		for ; len(b) >= 3 && len(shapes) < 40; b = b[3:] {
			shapes = append(shapes, Shape{Text: int(binary.LittleEndian.Uint16(b)) % 4097, AD: int(b[2])})
		}
		each(func(string) {
			a, err := newAEAD(sizes)
			if err != nil {
				t.Fatal(err)
			}
			TestBatchShapes(t, a, shapes)
		})
	})
}

// Runs returns shapes in runs of one text length, for each of lengths: 15
// messages and one twice as long and more, which breaks the run at its
// end, then 48 (three runs of 16), every other one with associated data,
// the last without. Batch kernels that take 16 like messages at once see
// both kinds of run, and TestBatchShapes changes the last tag, in a run
// and without associated data (a tag such kernels may finish themselves).
func Runs(lengths []int) []Shape {
	var shapes []Shape
	for _, n := range lengths {
		for range 15 {
			shapes = append(shapes, Shape{Text: n})
		}
		shapes = append(shapes, Shape{Text: 2*n + 17})
		for i := range 48 {
			shapes = append(shapes, Shape{Text: n, AD: (i + 1) % 2 * (n%23 + 1)})
		}
	}
	return shapes
}

// Alike returns, for each of lengths, a batch of n messages of that text
// length, every third with associated data, the last without: batches
// whose messages all take one path, which random and Runs's batches do
// not give (a batch kernel may take such a batch's messages 16 at a time
// without a look at each, or each alone).
func Alike(n int, lengths []int) [][]Shape {
	var batches [][]Shape
	for _, l := range lengths {
		shapes := make([]Shape, n)
		for i := range shapes {
			shapes[i] = Shape{Text: l, AD: (n - 1 - i) % 3 % 2 * (l%23 + 1)}
		}
		batches = append(batches, shapes)
	}
	return batches
}

// TestBatchShapes compares SealBatch and OpenBatch of a batch of messages
// of the given shapes, with random contents and nonces, alternately in
// place, with Seal and Open of each alone; then it opens the batch with
// the tag of its last message changed, which alone must fail. It is for
// batch kernels whose lanes need lengths side by side that random batches
// rarely give.
func TestBatchShapes(t *testing.T, a batch.AEAD, shapes []Shape) {
	t.Helper()
	r := newRand()
	ms := make([]message, len(shapes))
	for i, sh := range shapes {
		m := &ms[i]
		m.nonce, m.pt, m.ad = randBytes(r, a.NonceSize()), randBytes(r, sh.Text), randBytes(r, sh.AD)
		m.inPlace = i%2 == 1
		m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
	}
	agreeBatch(t, a, ms)
	if len(ms) == 0 {
		return
	}
	b := openBatch(ms, a.Overhead())
	last := &b[len(b)-1]
	last.In[len(last.In)-1] ^= 1
	if a.OpenBatch(b) {
		t.Fatalf("batch of %d: OpenBatch accepted a changed tag", len(b))
	}
	for i, m := range ms {
		ok := i < len(ms)-1
		if b[i].OK != ok || ok && !bytes.Equal(b[i].Out, m.pt) || !ok && !bytes.Equal(b[i].Out, make([]byte, len(m.pt))) {
			t.Fatalf("batch of %d with the last tag changed, message %d: OK %v, want %v; output wrong", len(b), i, b[i].OK, ok)
		}
	}
}

// agreeBatch compares SealBatch and OpenBatch of ms with their single
// calls.
func agreeBatch(t *testing.T, a batch.AEAD, ms []message) {
	t.Helper()
	n, ov := len(ms), a.Overhead()
	b := sealBatch(ms, ov)
	a.SealBatch(b)
	for i, m := range ms {
		if !bytes.Equal(b[i].Out, m.ct) {
			t.Fatalf("batch of %d, message %d (%d bytes, ad %d, in place %v): SealBatch differs from Seal", n, i, len(m.pt), len(m.ad), m.inPlace)
		}
		if b[i].OK != (i%2 == 0) {
			t.Fatalf("batch of %d, message %d: SealBatch changed OK", n, i)
		}
	}
	b = openBatch(ms, ov)
	for i := range b {
		b[i].OK = false
	}
	if !a.OpenBatch(b) {
		t.Fatalf("batch of %d: OpenBatch returned false", n)
	}
	for i, m := range ms {
		if !b[i].OK || !bytes.Equal(b[i].Out, m.pt) {
			t.Fatalf("batch of %d, message %d (%d bytes, ad %d, in place %v): OpenBatch: OK %v, plaintext equal %v", n, i, len(m.pt), len(m.ad), m.inPlace, b[i].OK, bytes.Equal(b[i].Out, m.pt))
		}
	}
}

// testBatchTamper opens batches in which some messages are changed (a bit
// of the ciphertext, tag, associated data or nonce) or shorter than the tag:
// exactly those must fail, with zeroed outputs, and the others open.
func testBatchTamper(t *testing.T, a batch.AEAD, c config) {
	r := newRand()
	ov := a.Overhead()
	rounds, n := 8, 40
	if c.short {
		rounds, n = 3, 20
	}
	for round := range rounds {
		ms := randMessages(r, a, c, n)
		b := openBatch(ms, ov)
		bad := make([]bool, n)
		for i := range b {
			m := &b[i]
			m.OK = r.Uint64()%2 == 0 // OpenBatch must set every flag
			if r.Uint64()%3 != 0 {
				continue
			}
			bad[i] = true
			switch r.Uint64() % 4 {
			case 0:
				bit := r.Uint64() % uint64(8*len(m.In))
				m.In[bit/8] ^= 1 << (bit % 8)
			case 1:
				if len(m.AD) == 0 {
					m.AD = []byte{0}
				} else {
					m.AD = bytes.Clone(m.AD)
					m.AD[r.Uint64()%uint64(len(m.AD))] ^= 1
				}
			case 2:
				m.Nonce = bytes.Clone(m.Nonce)
				m.Nonce[r.Uint64()%uint64(len(m.Nonce))] ^= 0x80
			default: // shorter than the tag
				m.In, m.Out = m.In[:r.Uint64()%uint64(ov)], nil
			}
		}
		if round == 0 { // a good message in the middle, an empty input last
			bad[n/2] = false
			b[n/2] = openBatch(ms[n/2:n/2+1], ov)[0]
			bad[n-1] = true
			b[n-1].In = b[n-1].In[:0]
			b[n-1].Out = b[n-1].Out[:0]
		}
		anyBad := false
		for _, x := range bad {
			anyBad = anyBad || x
		}
		if got := a.OpenBatch(b); got != !anyBad {
			t.Fatalf("round %d: OpenBatch returned %v, want %v", round, got, !anyBad)
		}
		for i, m := range b {
			switch {
			case m.OK == bad[i]:
				t.Fatalf("round %d, message %d (%d bytes, tampered %v): OK %v", round, i, len(ms[i].pt), bad[i], m.OK)
			case bad[i] && len(m.In) < ov && len(m.Out) != 0:
				t.Fatalf("round %d, message %d: short input, %d bytes of output", round, i, len(m.Out))
			case bad[i] && !bytes.Equal(m.Out, make([]byte, len(m.Out))):
				t.Fatalf("round %d, message %d (%d bytes): failed output not zeroed", round, i, len(m.Out))
			case !bad[i] && !bytes.Equal(m.Out, ms[i].pt):
				t.Fatalf("round %d, message %d (%d bytes): wrong plaintext beside tampered messages", round, i, len(m.Out))
			}
		}
	}
}

// testBatchPanics checks that a bad message anywhere in a batch panics,
// naming its package, before any output of any message is written.
func testBatchPanics(t *testing.T, a batch.AEAD) {
	r := newRand()
	ov, ns := a.Overhead(), a.NonceSize()
	const n = 5
	lengths := [n]int{3, 0, 100, 1, 40} // the bad ones (0, 2, 4) not empty
	const at = 300                      // where the bad message's input sits in its buffer
	type fault struct {
		name string
		// set breaks message m of a seal (open false) or open batch whose
		// input sits at buf[at:]; in is m's correct input.
		set func(m *batch.Message, buf, in []byte, open bool)
	}
	outLen := func(in []byte, open bool) int {
		if open {
			return max(len(in)-ov, 0)
		}
		return len(in) + ov
	}
	faults := []fault{
		{"Out one byte short", func(m *batch.Message, _, _ []byte, _ bool) { m.Out = m.Out[:len(m.Out)-1] }},
		{"Out one byte long", func(m *batch.Message, _, _ []byte, _ bool) { m.Out = m.Out[:len(m.Out)+1] }},
		{"nonce one byte short", func(m *batch.Message, _, _ []byte, _ bool) { m.Nonce = m.Nonce[:ns-1] }},
		{"nonce one byte long", func(m *batch.Message, _, _ []byte, _ bool) { m.Nonce = append(bytes.Clone(m.Nonce), 0) }},
		{"Out one byte after In", func(m *batch.Message, buf, in []byte, open bool) {
			m.Out = buf[at+1 : at+1+outLen(in, open)]
		}},
		{"Out one byte before In", func(m *batch.Message, buf, in []byte, open bool) {
			m.Out = buf[at-1 : at-1+outLen(in, open)]
		}},
		{"Out over the AD", func(m *batch.Message, buf, in []byte, open bool) {
			m.AD = buf[10 : 10+copy(buf[10:], m.AD)]
			m.Out = buf[12 : 12+outLen(in, open)]
		}},
		{"Out with In shorter than the tag", func(m *batch.Message, _, _ []byte, open bool) {
			m.In, m.Out = m.In[:ov-1], make([]byte, 1)
		}},
	}
	for _, open := range []bool{false, true} {
		op := "SealBatch"
		if open {
			op = "OpenBatch"
		}
		for _, f := range faults {
			if f.name == "Out with In shorter than the tag" && !open {
				continue
			}
			for _, k := range []int{0, 2, n - 1} {
				ms := make([]batch.Message, n)
				bufs := make([][]byte, n)
				for i := range ms {
					pt, ad := randBytes(r, lengths[i]), randBytes(r, 7)
					nonce := randBytes(r, ns)
					in := pt
					if open {
						in = a.Seal(nil, nonce, pt, ad)
					}
					bufs[i] = bytes.Repeat([]byte{sentinel}, 2*at+2*len(in)+2*ov)
					copy(bufs[i][at:], in)
					ms[i] = batch.Message{Nonce: nonce, AD: ad, In: bufs[i][at : at+len(in)], OK: i%2 == 0}
					ms[i].Out = bufs[i][2*at+len(in):][:outLen(in, open)]
					if i == k {
						f.set(&ms[i], bufs[i], ms[i].In, open)
					}
				}
				orig := make([][]byte, n)
				for i := range bufs {
					orig[i] = bytes.Clone(bufs[i])
				}
				what := fmt.Sprintf("%s with message %d of %d: %s", op, k, n, f.name)
				func() {
					defer func() {
						e := recover()
						msg, _ := e.(string)
						if pkg, _, ok := strings.Cut(msg, ": "); e == nil || !ok || pkg == "" || strings.ContainsAny(pkg, "/ ") {
							t.Errorf("%s: panicked with %v, want a message that starts with the package's name", what, e)
						}
					}()
					if open {
						a.OpenBatch(ms)
					} else {
						a.SealBatch(ms)
					}
				}()
				for i := range bufs {
					if !bytes.Equal(bufs[i], orig[i]) || ms[i].OK != (i%2 == 0) {
						t.Errorf("%s: message %d's buffers or OK changed before the panic", what, i)
					}
				}
			}
		}
	}
}

// TestBatchConcurrent seals and opens batches under a from several
// goroutines at once; run with -race it also finds shared state written
// during a batch.
func TestBatchConcurrent(t *testing.T, a batch.AEAD, opts ...Option) {
	c := newConfig(opts)
	r := newRand()
	ms := randMessages(r, a, c, 12)
	rounds := 4
	if c.short {
		rounds = 2
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range rounds {
				b := sealBatch(ms, a.Overhead())
				a.SealBatch(b)
				for i := range b {
					if !bytes.Equal(b[i].Out, ms[i].ct) {
						t.Errorf("goroutine %d: concurrent SealBatch differs, message %d", g, i)
						return
					}
				}
				if b = openBatch(ms, a.Overhead()); !a.OpenBatch(b) {
					t.Errorf("goroutine %d: concurrent OpenBatch failed", g)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestBatchNoAllocs checks that SealBatch and OpenBatch allocate nothing,
// on a batch of messages of the given lengths (by default the IPI's and a
// few around them). A message of par.Threshold bytes or more checks that a
// batch runs on the caller's goroutine even where WithParallelism would
// split the message. It skips in instrumented builds, as TestNoAllocs does.
func TestBatchNoAllocs(t *testing.T, a batch.AEAD, lengths ...int) {
	if instrumented {
		t.Skip("allocation counts are not meaningful in an instrumented build")
	}
	if len(lengths) == 0 {
		lengths = []int{0, 1, 16, 44, 100, 552, 576, 1500, 4097}
	}
	r := newRand()
	ms := make([]message, len(lengths))
	for i, n := range lengths {
		m := &ms[i]
		m.nonce, m.pt, m.ad = randBytes(r, a.NonceSize()), randBytes(r, n), randBytes(r, i*5)
		m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
	}
	seal, open := sealBatch(ms, a.Overhead()), openBatch(ms, a.Overhead())
	if n := testing.AllocsPerRun(3, func() { a.SealBatch(seal) }); n != 0 {
		t.Errorf("SealBatch: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(3, func() { a.OpenBatch(open) }); n != 0 {
		t.Errorf("OpenBatch: %v allocations, want 0", n)
	}
	for i, m := range ms {
		if !bytes.Equal(seal[i].Out, m.ct) || !open[i].OK || !bytes.Equal(open[i].Out, m.pt) {
			t.Fatalf("message %d of %d bytes: batch differs from single calls", i, len(m.pt))
		}
	}
}

// testBatchGuard seals and opens batches of three messages whose every
// buffer (nonce, associated data, input, output) touches a guard page, at
// one side and then the other (with -short or Sparse, one side for each
// batch, in turn): messages of the guard package's lengths, separate and in place,
// and failing ones.
func testBatchGuard(t *testing.T, a batch.AEAD, c config) {
	const k = 3
	// Lengths up to a few KiB: the single-message guard tests take the
	// longer ones.
	lengths := slices.DeleteFunc(guard.Lengths(), func(n int) bool { return n > 8192 })
	most := lengths[len(lengths)-1]
	if c.maxMessage > 0 {
		most = min(most, c.maxMessage)
	}
	ov := a.Overhead()
	var regions [k]guardRegions
	for i := range regions {
		regions[i] = newGuardRegions(t, a.NonceSize(), 100, most+ov)
	}
	r := newRand()
	for j := 0; j < len(lengths); j += k {
		var ms [k]message
		for i := range ms {
			l := min(lengths[min(j+i, len(lengths)-1)], most)
			ms[i] = message{nonce: randBytes(r, a.NonceSize()), pt: randBytes(r, l), ad: randBytes(r, (l+i)%101)}
			ms[i].ct = a.Seal(nil, ms[i].nonce, ms[i].pt, ms[i].ad)
		}
		for si, side := range guard.Sides {
			if c.short && si != j/k%2 {
				continue // with -short, the sides take turns
			}
			var b [k]batch.Message
			msg := func(i int, in []byte, outLen int, inPlace bool) batch.Message {
				return regions[i].message(side, ms[i].nonce, ms[i].ad, in, outLen, inPlace)
			}
			err := guard.Fault(func() {
				for _, inPlace := range []bool{false, true} {
					for i := range b {
						b[i] = msg(i, ms[i].pt, len(ms[i].ct), inPlace)
					}
					a.SealBatch(b[:])
					for i := range b {
						if !bytes.Equal(b[i].Out, ms[i].ct) {
							t.Errorf("SealBatch (in place %v): message %d of %d bytes differs", inPlace, i, len(ms[i].pt))
						}
					}
					for i := range b {
						b[i] = msg(i, ms[i].ct, len(ms[i].pt), inPlace)
					}
					ok := a.OpenBatch(b[:])
					for i := range b {
						if !ok || !b[i].OK || !bytes.Equal(b[i].Out, ms[i].pt) {
							t.Errorf("OpenBatch (in place %v): message %d of %d bytes failed", inPlace, i, len(ms[i].pt))
						}
					}
				}
				for i := range b {
					b[i] = msg(i, ms[i].ct, len(ms[i].pt), false)
					b[i].In[len(b[i].In)-1] ^= 1
				}
				if a.OpenBatch(b[:]) {
					t.Errorf("OpenBatch accepted changed tags")
				}
			})
			if err != nil {
				t.Errorf("%v", err)
			}
			if t.Failed() {
				t.Fatalf("guard pages at the %v of each buffer: messages of %d, %d and %d bytes", side, len(ms[0].pt), len(ms[1].pt), len(ms[2].pt))
			}
		}
	}
}

// MustBatch returns a, a constructor's result, as a batch.AEAD; it panics
// if err is not nil or a does not implement batch.AEAD.
func MustBatch[A cipher.AEAD](a A, err error) batch.AEAD {
	if err != nil {
		panic(err)
	}
	return any(a).(batch.AEAD)
}

// guardRegions are the guarded buffers of one message.
type guardRegions struct{ nonce, ad, in, out *guard.Region }

func newGuardRegions(t *testing.T, nonceSize, adSize, size int) guardRegions {
	return guardRegions{guard.New(t, nonceSize), guard.New(t, adSize), guard.New(t, size), guard.New(t, size)}
}

// message returns a message with its buffers against the guard pages at
// side: In holds in, and Out, outLen bytes, is separate or In's memory.
func (r *guardRegions) message(side guard.Side, nonce, ad, in []byte, outLen int, inPlace bool) batch.Message {
	m := batch.Message{Nonce: r.nonce.Copy(nonce, side), AD: r.ad.Copy(ad, side)}
	if inPlace {
		buf := r.in.Slice(max(len(in), outLen), side)
		copy(buf, in)
		m.In, m.Out = buf[:len(in)], buf[:outLen]
	} else {
		m.In, m.Out = r.in.Copy(in, side), r.out.Slice(outLen, side)
	}
	return m
}
