package gpu

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/ctr"
	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/gpukernel"
	"github.com/faelabs/fae/ocb"
	"github.com/faelabs/fae/raocb"
)

// Every generated kernel runs on the emulator against fae's CPU code. The
// geometries are small so that warps take several groups of 32 blocks,
// launches have several thread blocks and messages span several chunks
// (launches), whose first blocks are not multiples of 32.
var geometries = []struct{ chunk, threads, ctas int }{
	{16 * 40, 32, 1},  // 40 blocks per launch, 2 or 3 groups for one warp
	{16 * 200, 64, 2}, // groups over 4 warps in 2 blocks
	{16 * 64, 32, 3},  // more warps than groups for short messages
}

func emuEngines(t *testing.T) []*engine {
	t.Helper()
	var es []*engine
	for _, g := range geometries {
		e, err := newEngine(newEmuDevice(), g.chunk, g.threads, g.ctas)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	return es
}

var keySizes = []int{16, 24, 32}

// aeadKeySize is the key size the AEAD tests take on geometry i: each
// number of rounds on one geometry, which keeps the emulator's time within
// bounds and still runs every kernel.
func aeadKeySize(i int) int { return keySizes[i%len(keySizes)] }

// emuKeySizes are the key sizes ECB and CTR take on geometry i: all, or
// with -short (the race and qemu runs) aeadKeySize's.
func emuKeySizes(i int) []int {
	if testing.Short() {
		return []int{aeadKeySize(i)}
	}
	return keySizes
}

// lengths covers empty input, partial final blocks, one block, one or more
// chunks of every geometry and their edges; shortLengths (-short) fewer
// edges.
var (
	lengths      = []int{0, 1, 15, 16, 17, 31, 32, 33, 95, 96, 97, 160, 255, 641, 1024, 1500}
	shortLengths = []int{0, 1, 16, 17, 33, 97, 641, 1500}
)

func random(r *rand.ChaCha8, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// configs are the kernels' two kinds: bitsliced and table-based.
var configs = []config{{}, {tables: true}}

func TestEmuECB(t *testing.T) {
	r := rand.NewChaCha8([32]byte{1})
	for i, e := range emuEngines(t) {
		for _, cfg := range configs {
			for _, ks := range emuKeySizes(i) {
				b, _ := aes.New(random(r, ks))
				key := newKeying(b, cfg)
				for _, n := range []int{16, 96, 112, 1024} {
					src := random(r, n)
					got := make([]byte, n)
					if _, _, err := e.run(key.kernel(opECB, maskNone), key.aux(nil), key.params(opECB), got, src, 0); err != nil {
						t.Fatal(err)
					}
					want := make([]byte, n)
					b.EncryptBlocks(want, src)
					if !bytes.Equal(got, want) {
						t.Errorf("geometry %d, %+v, key %d, %d bytes: ECB differs", i, cfg, ks, n)
					}
				}
			}
		}
	}
}

func TestEmuCTR(t *testing.T) {
	r := rand.NewChaCha8([32]byte{2})
	ivs := [][]byte{
		random(r, 16),
		bytes.Repeat([]byte{0xff}, 16), // the whole counter wraps
		append(random(r, 8), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd), // the low half carries
	}
	for i, e := range emuEngines(t) {
		for _, cfg := range configs {
			for _, ks := range emuKeySizes(i) {
				key := random(r, ks)
				for j, iv := range ivs {
					got, err := newCTR(e, key, iv, cfg)
					if err != nil {
						t.Fatal(err)
					}
					want, _ := ctr.New(key, iv)
					for _, n := range []int{0, 5, 16, 11, 100, 641, 3, 3500} {
						src := random(r, n)
						g, w := make([]byte, n), make([]byte, n)
						got.XORKeyStream(g, src)
						want.XORKeyStream(w, src)
						if !bytes.Equal(g, w) {
							t.Fatalf("geometry %d, %+v, key %d, IV %d: CTR differs at a %d-byte call", i, cfg, ks, j, n)
						}
					}
				}
			}
		}
	}
}

// testAEADPair checks got against want on every length of message and AD,
// and that got opens what it seals and rejects a changed tag.
func testAEADPair(t *testing.T, name string, got, want cipher.AEAD, r *rand.ChaCha8) {
	t.Helper()
	defer noFallback(t, name)()
	ls := lengths
	if testing.Short() {
		ls = shortLengths
	}
	for _, n := range ls {
		adLens := []int{0, 1, 16, 40, n}
		if testing.Short() {
			// AD as long as each message still takes every length.
			adLens = []int{0, n}
		}
		for _, adLen := range adLens {
			nonce, pt, ad := random(r, 12), random(r, n), random(r, adLen)
			w := want.Seal(nil, nonce, pt, ad)
			g := got.Seal(nil, nonce, pt, ad)
			if !bytes.Equal(g, w) {
				t.Fatalf("%s: %d bytes, %d of AD: Seal differs", name, n, adLen)
			}
			p, err := got.Open(nil, nonce, w, ad)
			if err != nil || !bytes.Equal(p, pt) {
				t.Fatalf("%s: %d bytes, %d of AD: Open failed: %v", name, n, adLen, err)
			}
			w[len(w)-1] ^= 1
			if _, err := got.Open(nil, nonce, w, ad); err == nil {
				t.Fatalf("%s: %d bytes, %d of AD: Open accepted a changed tag", name, n, adLen)
			}
		}
	}
}

func TestEmuOCB(t *testing.T) {
	r := rand.NewChaCha8([32]byte{3})
	for i, e := range emuEngines(t) {
		ks := aeadKeySize(i)
		for _, cfg := range configs {
			key := random(r, ks)
			got, err := newOCB(e, key, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := ocb.New(key)
			testAEADPair(t, fmt.Sprintf("geometry %d, %+v, key %d", i, cfg, ks), got, want, r)
		}
	}
}

func TestEmuRAOCB(t *testing.T) {
	r := rand.NewChaCha8([32]byte{4})
	for i, e := range emuEngines(t) {
		ks := aeadKeySize(i)
		for _, cfg := range configs {
			key := random(r, ks)
			got, err := newRAOCB(e, key, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := raocb.New(key)
			testAEADPair(t, fmt.Sprintf("geometry %d, %+v, key %d", i, cfg, ks), got, want, r)
		}
	}
}

// TestEmuPinned runs the modes on memory from allocHost, which the engine
// moves without staging, input and output both pinned or only one of them.
func TestEmuPinned(t *testing.T) {
	r := rand.NewChaCha8([32]byte{8})
	e := emuEngines(t)[1]
	in, err := e.allocHost(8192)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := e.allocHost(8192)
	key, iv := random(r, 16), random(r, 16)
	for _, n := range []int{16, 3200, 5000} {
		pt := random(r, n)
		copy(in, pt)
		want := make([]byte, n)
		c, _ := ctr.New(key, iv)
		c.XORKeyStream(want, pt)
		g, _ := newCTR(e, key, iv, config{})
		g.XORKeyStream(out[:n], in[:n])
		if !bytes.Equal(out[:n], want) {
			t.Fatalf("%d bytes: CTR on pinned memory differs", n)
		}
		nonce := random(r, 12)
		for _, pair := range []struct {
			got  func([]byte) (cipher.AEAD, error)
			want func([]byte) (cipher.AEAD, error)
		}{
			{func(k []byte) (cipher.AEAD, error) { return newOCB(e, k, config{}) }, func(k []byte) (cipher.AEAD, error) { return ocb.New(k) }},
			{func(k []byte) (cipher.AEAD, error) { return newRAOCB(e, k, config{}) }, func(k []byte) (cipher.AEAD, error) { return raocb.New(k) }},
		} {
			got, _ := pair.got(key)
			ref, _ := pair.want(key)
			w := ref.Seal(nil, nonce, pt, nil)
			if s := got.Seal(out[:0], nonce, in[:n], nil); !bytes.Equal(s, w) {
				t.Fatalf("%d bytes: Seal on pinned memory differs", n)
			}
			if s := got.Seal(nil, nonce, in[:n], nil); !bytes.Equal(s, w) {
				t.Fatalf("%d bytes: Seal from pinned memory differs", n)
			}
			copy(in, w)
			p, err := got.Open(out[:0], nonce, in[:len(w)], nil)
			if err != nil || !bytes.Equal(p, pt) {
				t.Fatalf("%d bytes: Open on pinned memory failed: %v", n, err)
			}
			copy(in, pt)
		}
	}
	if err := e.freeHost(in); err != nil {
		t.Fatal(err)
	}
	if err := e.freeHost(in); err == nil {
		t.Error("a second freeHost succeeded")
	}
	if e.pinned(in) || !e.pinned(out[100:200]) {
		t.Error("pinned reports the wrong memory")
	}
}

// TestEmuBatch runs batches on the emulator against the CPU packages, on
// every geometry (launches that end inside messages) and both kinds of
// kernels.
func TestEmuBatch(t *testing.T) {
	r := rand.NewChaCha8([32]byte{10})
	for i, e := range emuEngines(t) {
		pinned, err := e.allocHost(16 << 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range configs {
			key := random(r, aeadKeySize(i))
			o, err := newOCB(e, key, cfg)
			if err != nil {
				t.Fatal(err)
			}
			ra, _ := newRAOCB(e, key, cfg)
			wo, _ := ocb.New(key)
			wr, _ := raocb.New(key)
			name := fmt.Sprintf("geometry %d, %+v", i, cfg)
			testBatch(t, name+", ocb", o, wo, r, pinned)
			testBatch(t, name+", raocb", ra, wr, r, pinned)
		}
	}
}

// noFallback returns a func that fails t if a call fell back to the CPU
// since: the device, emulated or not, must not fail in these tests, or
// the CPU code's results would hide it.
func noFallback(t *testing.T, name string) func() {
	n0, _ := Fallbacks()
	return func() {
		if n, err := Fallbacks(); n != n0 {
			t.Fatalf("%s: %d calls fell back to the CPU: %v", name, n-n0, err)
		}
	}
}

// batchLengths are the messages of testBatch: empty, partial final
// blocks, one block, short and long, in mixed order; -short fewer.
func batchLengths() []int {
	if testing.Short() {
		return []int{0, 17, 1500, 1, 48, 640, 3000, 15}
	}
	return []int{0, 17, 1500, 1, 16, 48, 640, 3000, 15, 33, 2047, 160, 31, 1024, 7, 500}
}

// testBatch checks got's SealBatch and OpenBatch against want's Seal and
// Open of each message alone: mixed lengths and AD, messages in place, on
// their own memory and on pinned memory (DMA), messages changed in their
// text, tag or AD, and one shorter than the tag.
func testBatch(t *testing.T, name string, got batch.AEAD, want cipher.AEAD, r *rand.ChaCha8, pinned []byte) {
	t.Helper()
	defer noFallback(t, name)()
	lens := batchLengths()
	adLens := []int{0, 5, 16, 40, 300, 33}
	msgs := make([]batch.Message, len(lens))
	var pts, cts [][]byte
	free := pinned
	for k, n := range lens {
		m := &msgs[k]
		m.Nonce, m.AD = random(r, 12), random(r, adLens[k%len(adLens)])
		pt := random(r, n)
		pts = append(pts, pt)
		cts = append(cts, want.Seal(nil, m.Nonce, pt, m.AD))
		switch {
		case k%3 == 0: // in place, on pinned memory for every other one
			buf := make([]byte, n+16)
			if k%2 == 0 && len(free) >= n+16 {
				buf, free = free[:n+16], free[n+16:]
			}
			copy(buf, pt)
			m.In, m.Out = buf[:n], buf
		case k%3 == 2 && len(free) >= 2*n+16: // pinned
			m.In, m.Out, free = free[:n], free[n:2*n+16], free[2*n+16:]
			copy(m.In, pt)
		default:
			m.In, m.Out = bytes.Clone(pt), make([]byte, n+16)
		}
	}
	got.SealBatch(msgs)
	for k, m := range msgs {
		if !bytes.Equal(m.Out, cts[k]) {
			t.Fatalf("%s: SealBatch message %d (%d bytes, %d of AD) differs from Seal", name, k, lens[k], len(m.AD))
		}
		if k%3 != 0 && !bytes.Equal(m.In, pts[k]) {
			t.Fatalf("%s: SealBatch changed the input of message %d", name, k)
		}
	}

	// Open: some in place, some changed.
	opens := make([]batch.Message, len(msgs)+1)
	bad := map[int]bool{}
	for k, m := range msgs {
		o := &opens[k]
		o.Nonce, o.AD, o.In = m.Nonce, m.AD, bytes.Clone(cts[k])
		if k%2 == 0 {
			o.Out = o.In[:lens[k]]
		} else {
			o.Out = make([]byte, lens[k])
		}
		switch k % 5 {
		case 1:
			o.In[r.Uint64()%uint64(len(o.In))] ^= 0x10 // text or tag
			bad[k] = true
		case 3:
			if len(o.AD) > 0 {
				o.AD = bytes.Clone(o.AD)
				o.AD[len(o.AD)-1] ^= 1
				bad[k] = true
			}
		}
	}
	short := len(msgs)
	opens[short] = batch.Message{Nonce: msgs[0].Nonce, In: make([]byte, 15), Out: []byte{}}
	bad[short] = true
	if got.OpenBatch(opens) {
		t.Fatalf("%s: OpenBatch accepted changed messages", name)
	}
	for k, o := range opens {
		switch {
		case bad[k]:
			if o.OK || !bytes.Equal(o.Out, make([]byte, len(o.Out))) {
				t.Errorf("%s: changed message %d: OK %v, output not zeroed", name, k, o.OK)
			}
		case !o.OK || !bytes.Equal(o.Out, pts[k]):
			t.Errorf("%s: message %d (%d bytes) did not open", name, k, lens[k])
		}
	}
	for k, m := range msgs {
		opens[k] = batch.Message{Nonce: m.Nonce, AD: m.AD, In: cts[k], Out: make([]byte, lens[k])}
	}
	if !got.OpenBatch(opens[:len(msgs)]) {
		t.Errorf("%s: OpenBatch failed on good messages", name)
	}
}

// TestEmuFallback makes the emulated device fail at each launch of a
// call, at the launch or at the sync after it, with the call's output in
// place or not: every call completes with the CPU packages' result, its
// input intact where it is not its output, and counts in Fallbacks.
func TestEmuFallback(t *testing.T) {
	r := rand.NewChaCha8([32]byte{13})
	key, iv := random(r, 16), random(r, 16)
	wo, _ := ocb.New(key)
	wr, _ := raocb.New(key)
	const n = 1000 // up to 4 launches of 16 blocks a message
	pt, ad, nonce := random(r, n), random(r, 20), random(r, 12)
	// Failures at the AD's launch, at the text's first, after a launch
	// delivered (the third on), and none; -short (race, qemu) fewer.
	failAts := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if testing.Short() {
		failAts = []int{0, 3, 5, 11}
	}
	for _, failAt := range failAts {
		for _, atSync := range []bool{false, true} {
			for _, cfg := range configs {
				name := fmt.Sprintf("failure at launch %d (at sync %v), %+v", failAt, atSync, cfg)
				e, err := newEngine(newEmuDevice(), 16*16, 32, 1)
				if err != nil {
					t.Fatal(err)
				}
				d := &failingDevice{emuDevice: e.dev.(*emuDevice), failAt: failAt, atSync: atSync}
				e.dev = d
				n0, _ := Fallbacks()
				calls := 0
				o, _ := newOCB(e, key, cfg)
				ra, _ := newRAOCB(e, key, cfg)
				for _, pair := range []struct {
					name      string
					got, want batch.AEAD
				}{{"ocb", o, wo}, {"raocb", ra, wr}} {
					w := pair.want.Seal(nil, nonce, pt, ad)
					buf := append(make([]byte, 0, n+16), pt...)
					d.launches, d.failed = 0, [2]bool{}
					if c := pair.got.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(c, w) {
						t.Fatalf("%s: %s: Seal in place differs", name, pair.name)
					}
					buf = buf[:n+16]
					d.launches, d.failed = 0, [2]bool{}
					p, err := pair.got.Open(buf[:0], nonce, buf, ad)
					if err != nil || !bytes.Equal(p, pt) {
						t.Fatalf("%s: %s: Open in place failed: %v", name, pair.name, err)
					}
					d.launches, d.failed = 0, [2]bool{}
					msgs := []batch.Message{
						{Nonce: nonce, AD: ad, In: bytes.Clone(pt)},
						{Nonce: nonce, In: pt[:300], Out: make([]byte, 316)},
						{Nonce: nonce, AD: ad[:3], In: bytes.Clone(pt[:500])},
					}
					msgs[0].Out = append(msgs[0].In, make([]byte, 16)...)[:n+16]
					msgs[2].Out = append(msgs[2].In, make([]byte, 16)...)[:516]
					pair.got.SealBatch(msgs)
					for k, m := range msgs {
						if !bytes.Equal(m.Out, pair.want.Seal(nil, m.Nonce, pt[:len(m.In)], m.AD)) {
							t.Fatalf("%s: %s: SealBatch message %d differs", name, pair.name, k)
						}
					}
					d.launches, d.failed = 0, [2]bool{}
					for k := range msgs {
						m := &msgs[k]
						m.In, m.Out = m.Out, m.Out[:len(m.Out)-16]
					}
					msgs[1].Out = make([]byte, 300)
					if !pair.got.OpenBatch(msgs) {
						t.Fatalf("%s: %s: OpenBatch failed", name, pair.name)
					}
					for k, m := range msgs {
						if !bytes.Equal(m.Out, pt[:len(m.Out)]) {
							t.Fatalf("%s: %s: OpenBatch message %d differs", name, pair.name, k)
						}
					}
					calls += 4
				}
				g, _ := newCTR(e, key, iv, cfg)
				want, _ := ctr.New(key, iv)
				buf, wbuf := bytes.Clone(pt), make([]byte, n)
				d.launches, d.failed = 0, [2]bool{}
				g.XORKeyStream(buf, buf)
				want.XORKeyStream(wbuf, pt)
				if !bytes.Equal(buf, wbuf) {
					t.Fatalf("%s: CTR in place differs", name)
				}
				calls++
				got, err := Fallbacks()
				if failAt < 2 && got-n0 != uint64(calls) {
					// Every call takes two launches at least.
					t.Errorf("%s: %d of %d calls fell back", name, got-n0, calls)
				}
				if got != n0 && !errors.Is(err, errEmulatedFailure) {
					t.Errorf("%s: Fallbacks' error %v, want %v", name, err, errEmulatedFailure)
				}
				if failAt == 11 && got != n0 {
					t.Errorf("%s: %d calls fell back with no failure: %v", name, got-n0, err)
				}
			}
		}
	}
}

// TestEmuManyGroups runs messages of several bitsliced groups (1024
// blocks) on one warp, which then takes several groups per launch: OCB's
// offsets across groups, RAOCB's masks and CTR's counters of indices past
// 1024, for both kinds of kernels.
func TestEmuManyGroups(t *testing.T) {
	r := rand.NewChaCha8([32]byte{12})
	e, err := newEngine(newEmuDevice(), 48<<10, 32, 1)
	if err != nil {
		t.Fatal(err)
	}
	key, iv, nonce := random(r, 16), random(r, 16), random(r, 12)
	n := 40<<10 + 5
	pt, ad := random(r, n), random(r, 20<<10+3)
	for _, cfg := range configs {
		got, _ := newCTR(e, key, iv, cfg)
		want, _ := ctr.New(key, iv)
		g, w := make([]byte, n), make([]byte, n)
		got.XORKeyStream(g, pt)
		want.XORKeyStream(w, pt)
		if !bytes.Equal(g, w) {
			t.Errorf("%+v: CTR differs", cfg)
		}
		o, _ := newOCB(e, key, cfg)
		ra, _ := newRAOCB(e, key, cfg)
		wo, _ := ocb.New(key)
		wr, _ := raocb.New(key)
		for name, pair := range map[string][2]cipher.AEAD{"ocb": {o, wo}, "raocb": {ra, wr}} {
			c := pair[0].Seal(nil, nonce, pt, ad)
			if !bytes.Equal(c, pair[1].Seal(nil, nonce, pt, ad)) {
				t.Errorf("%+v: %s: Seal differs", cfg, name)
			}
			if p, err := pair[0].Open(nil, nonce, c, ad); err != nil || !bytes.Equal(p, pt) {
				t.Errorf("%+v: %s: Open failed: %v", cfg, name, err)
			}
		}
	}
}

// TestEmuTimeKernel runs fae bench's kernel timing (gpukernel.Time) on
// the emulator: every op, both kinds, and its refusals.
func TestEmuTimeKernel(t *testing.T) {
	e := emuEngines(t)[1]
	for _, op := range gpukernel.Ops {
		for _, tables := range []bool{false, true} {
			if d, err := e.timeKernel(op, tables, 4096, 1); err != nil || d <= 0 {
				t.Errorf("%s, tables %v: %v, %v", op, tables, d, err)
			}
		}
	}
	for _, bad := range []struct {
		op string
		n  int
	}{{"ecb", 4096}, {"ctr", 4095}, {"ctr", 0}} {
		if _, err := e.timeKernel(bad.op, false, bad.n, 1); err == nil {
			t.Errorf("%s of %d bytes: no error", bad.op, bad.n)
		}
	}
}

// TestEmuBatchMany runs a batch of short messages large enough that the
// host's per-message steps run on all cores, and launches of many pieces.
func TestEmuBatchMany(t *testing.T) {
	r := rand.NewChaCha8([32]byte{14})
	e, err := newEngine(newEmuDevice(), 16*1024, 64, 2)
	if err != nil {
		t.Fatal(err)
	}
	key := random(r, 16)
	wo, _ := ocb.New(key)
	wr, _ := raocb.New(key)
	cfgs := configs
	if testing.Short() {
		cfgs = configs[:1] // the host's steps are the same for both
	}
	for _, cfg := range cfgs {
		o, _ := newOCB(e, key, cfg)
		ra, _ := newRAOCB(e, key, cfg)
		for name, pair := range map[string][2]batch.AEAD{"ocb": {o, wo}, "raocb": {ra, wr}} {
			done := noFallback(t, name)
			msgs := make([]batch.Message, 700)
			want := make([][]byte, len(msgs))
			for k := range msgs {
				n := int(r.Uint64() % 70)
				m := batch.Message{Nonce: random(r, 12), AD: random(r, int(r.Uint64()%40)), In: random(r, n), Out: make([]byte, n+16)}
				want[k] = pair[1].Seal(nil, m.Nonce, m.In, m.AD)
				msgs[k] = m
			}
			pair[0].SealBatch(msgs)
			for k, m := range msgs {
				if !bytes.Equal(m.Out, want[k]) {
					t.Fatalf("%+v: %s: message %d differs", cfg, name, k)
				}
				msgs[k].In, msgs[k].Out = m.Out, m.In
			}
			msgs[300].In[0] ^= 1
			if pair[0].OpenBatch(msgs) {
				t.Fatalf("%+v: %s: OpenBatch accepted a changed message", cfg, name)
			}
			for k, m := range msgs {
				if m.OK == (k == 300) {
					t.Fatalf("%+v: %s: message %d: OK %v", cfg, name, k, m.OK)
				}
			}
			done()
		}
	}
}
