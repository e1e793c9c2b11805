package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/faelabs/fae"
)

// TestRunJSON runs a whole quick run with the shortest time slices and a
// stand-in for openssl, and checks its JSON against the format of
// `fae bench --format json` in the API spec, with every registered
// algorithm.
func TestRunJSON(t *testing.T) {
	r, err := Run(Config{Quick: true, budget: time.Nanosecond, openssl: fakeOpenSSL(t)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Machine map[string]any   `json:"machine"`
		Results []map[string]any `json:"results"`
		Summary []map[string]any `json:"summary"`
	}
	dec := json.NewDecoder(&buf)
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}

	m := doc.Machine
	if s, _ := m["cpu"].(string); s == "" {
		t.Errorf("machine.cpu = %v", m["cpu"])
	}
	if g, _ := m["ghz"].(float64); g <= 0 {
		t.Errorf("machine.ghz = %v", m["ghz"])
	}
	if s, _ := m["go"].(string); !strings.HasPrefix(s, "go") {
		t.Errorf("machine.go = %v", m["go"])
	}
	if c, _ := m["cores"].(float64); c < 1 || c != float64(int(c)) {
		t.Errorf("machine.cores = %v", m["cores"])
	}

	impls := []string{implFae, implGo, implXCrypto, implOpenSSL, implProtonMail}
	type point struct {
		alg, impl, op string
		bytes         int
	}
	have := map[point]bool{}
	clockOf := map[string]float64{} // by algorithm, OpenSSL's rows apart
	for _, res := range doc.Results {
		alg, _ := res["alg"].(string)
		impl, _ := res["impl"].(string)
		op, _ := res["op"].(string)
		n, _ := res["bytes"].(float64)
		cpb, _ := res["cpb"].(float64)
		gbps, _ := res["gbps"].(float64)
		ghz, _ := res["ghz"].(float64)
		if alg == "" || !slices.Contains(impls, impl) || (op != "seal" && op != "open") ||
			n < 1 || n != float64(int(n)) || cpb <= 0 || gbps <= 0 || ghz <= 0 {
			t.Errorf("bad result %v", res)
		}
		if key := alg + "/" + fmt.Sprint(impl == implOpenSSL); clockOf[key] == 0 {
			clockOf[key] = ghz
		} else if clockOf[key] != ghz {
			t.Errorf("result %v: the rows of %s have different clocks (%v, %v)", res, alg, clockOf[key], ghz)
		}
		spread, ok := res["spread"]
		if !ok || (spread == nil) != (impl == implOpenSSL) {
			t.Errorf("result %v: spread must be a number, or null for openssl", res)
		}
		if _, ok := spread.(float64); spread != nil && !ok {
			t.Errorf("result %v: spread is not a number", res)
		}
		have[point{alg, impl, op, int(n)}] = true
	}
	summary := map[[2]string]map[string]any{}
	for _, s := range doc.Summary {
		for _, k := range []string{"alg", "impl", "cpb_4096", "overhead_4096", "ipi", "cpb_16384", "context_bytes", "init_cycles"} {
			if _, ok := s[k]; !ok {
				t.Errorf("summary %v lacks %s", s, k)
			}
		}
		alg, _ := s["alg"].(string)
		impl, _ := s["impl"].(string)
		summary[[2]string{alg, impl}] = s
	}

	algs := fae.Algorithms()
	if len(algs) == 0 {
		t.Fatal("no registered algorithm")
	}
	for _, info := range algs {
		for _, n := range defaultSizes {
			for _, op := range []string{"seal", "open"} {
				if !have[point{info.Name, registeredImpl(info.Name), op, n}] {
					t.Errorf("no result for %s %s at %d bytes", info.Name, op, n)
				}
			}
		}
		s := summary[[2]string{info.Name, registeredImpl(info.Name)}]
		if s == nil {
			t.Errorf("no summary for %s", info.Name)
			continue
		}
		for _, k := range []string{"cpb_4096", "overhead_4096", "ipi", "cpb_16384", "context_bytes", "init_cycles"} {
			if _, ok := s[k].(float64); !ok {
				t.Errorf("%s: summary %s = %v, want a number", info.Name, k, s[k])
			}
		}
		if c, _ := s["context_bytes"].(float64); c <= 0 || c != float64(int(c)) {
			t.Errorf("%s: context_bytes = %v", info.Name, s["context_bytes"])
		}
		if ctr := ctrName(info.KeySize); summary[[2]string{ctr, implFae}] == nil {
			t.Errorf("%s: no reference row %s", info.Name, ctr)
		}
		if _, ok := opensslCiphers[info.Name]; ok && !have[point{info.Name, implOpenSSL, "seal", 16384}] {
			t.Errorf("%s: no openssl row", info.Name)
		}
		for _, p := range peers[info.Name] {
			if summary[[2]string{p.alg, p.impl}] == nil {
				t.Errorf("%s: no row for peer %s", info.Name, p.impl)
			}
		}
	}
}

func TestHarnessDoesNotAllocate(t *testing.T) {
	a, err := goGCM(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	msg, buf, nonce := make([]byte, 1500), make([]byte, 1500+tagRoom), make([]byte, 12)
	seal := func(n int) {
		for range n {
			a.Seal(buf[:0], nonce, msg, nil)
		}
	}
	if got := allocsPerOp(seal); got != 0 {
		t.Errorf("a Seal into a buffer with room allocates %v times", got)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []Config{
		{},
		{Algs: []string{"aes-128-ocb3"}},
		{Algs: []string{"aes-*-ctr", "chacha20-poly1305"}, Sizes: []int{1, 1 << 20}, AD: 13},
		{Batch: MaxBatch, Sizes: []int{65536}},
	} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range []Config{
		{Algs: []string{"aes-128-foo"}},
		{Algs: []string{"[aes"}},
		{Sizes: []int{0}},
		{Sizes: []int{MaxSize + 1}},
		{AD: -1},
		{AD: maxAD + 1},
		{Batch: -1},
		{Batch: MaxBatch + 1},
		{Batch: MaxBatch, Sizes: []int{1 << 20}},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

func TestPlan(t *testing.T) {
	p, err := makePlan([]string{"aes-128-ocb3"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.subjects {
		got = append(got, s.alg+"/"+s.impl)
	}
	// fae's AES-128-CTR comes as the reference, without its peers.
	want := []string{"aes-128-ctr/fae", "aes-128-ocb3/fae", "aes-128-ocb3/protonmail"}
	if !slices.Equal(got, want) {
		t.Errorf("subjects %v, want %v", got, want)
	}
	if len(p.openssl) != 1 || p.openssl[0].name != "aes-128-ocb" || !p.openssl[0].aead {
		t.Errorf("openssl %+v, want aes-128-ocb as an AEAD", p.openssl)
	}

	p, err = makePlan([]string{"aes-128-ctr"})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, s := range p.subjects {
		got = append(got, s.alg+"/"+s.impl)
	}
	if want := []string{"aes-128-ctr/fae", "aes-128-ctr/go"}; !slices.Equal(got, want) {
		t.Errorf("subjects %v, want %v", got, want)
	}
}

func TestSizes(t *testing.T) {
	if got := (&Config{}).sizes(); !slices.Equal(got, defaultSizes) {
		t.Errorf("default sizes %v", got)
	}
	full := (&Config{Full: true}).sizes()
	if len(full) != fullMax+4 || full[0] != 1 || full[fullMax-1] != fullMax || full[len(full)-1] != 65536 {
		t.Errorf("full sizes: %d lengths, %v ... %v", len(full), full[:3], full[len(full)-5:])
	}
	if got := (&Config{Sizes: []int{64, 16, 64}}).sizes(); !slices.Equal(got, []int{16, 64}) {
		t.Errorf("sizes %v", got)
	}
}

// TestRunBatch checks the figures of --batch: batched Seal and Open rows at
// every length for an algorithm with a batch API, its batched IPI, none
// for chacha20-poly1305 (x/crypto) but a note, and the batch in every
// format.
func TestRunBatch(t *testing.T) {
	sizes := []int{16, 44, 552, 576, 1500}
	r, err := Run(Config{Quick: true, budget: time.Nanosecond, openssl: fakeOpenSSL(t),
		Algs: []string{"aes-128-ccm", "chacha20-poly1305"}, Sizes: sizes, Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	type point struct {
		alg, op string
		bytes   int
	}
	batched := map[point]bool{}
	for _, res := range r.Results {
		switch {
		case res.Batch == 0:
		case res.Batch != 3 || res.Alg != "aes-128-ccm" || res.Impl != implFae || res.CPB <= 0:
			t.Errorf("batched result %+v", res)
		default:
			batched[point{res.Alg, res.Op, res.Bytes}] = true
		}
	}
	for _, n := range sizes {
		for _, op := range []string{"seal", "open"} {
			if !batched[point{"aes-128-ccm", op, n}] {
				t.Errorf("no batched %s of %d bytes", op, n)
			}
		}
	}
	for _, s := range r.Summary {
		if hasIPI := s.IPIBatch != nil && *s.IPIBatch > 0 && s.Batch == 3; hasIPI != (s.Alg == "aes-128-ccm" && s.Impl == implFae) {
			t.Errorf("summary %s (%s): batched IPI %v, batch %d", s.Alg, s.Impl, s.IPIBatch, s.Batch)
		}
		if hasMixed := s.IPIMixed != nil && *s.IPIMixed > 0 && s.IPIMixedBatch != nil && *s.IPIMixedBatch > 0; hasMixed != (s.Alg == "aes-128-ccm" && s.Impl == implFae) {
			t.Errorf("summary %s (%s): IPI of mixed messages %v, in a batch %v", s.Alg, s.Impl, s.IPIMixed, s.IPIMixedBatch)
		}
	}
	notes := strings.Join(r.Notes, "\n")
	if !strings.Contains(notes, "chacha20-poly1305 (x/crypto): no batch API") {
		t.Errorf("no note on chacha20-poly1305 in %q", notes)
	}
	if strings.Contains(notes, "aes-128-ccm (fae) allocates") {
		t.Errorf("a batch allocates: %q", notes)
	}

	var text, csv, js bytes.Buffer
	for _, w := range []struct {
		b      *bytes.Buffer
		format string
	}{{&text, "text"}, {&csv, "csv"}, {&js, "json"}} {
		if err := r.Write(w.b, w.format); err != nil {
			t.Fatal(err)
		}
	}
	for _, re := range []string{`(?m)^algorithm +impl +cpb 4096 +overhead +IPI +IPI x3 +IPI mixed +IPI mixed x3 +cpb 16384 `, `(?m)^aes-128-ccm +fae +seal x3 +[0-9.]+`, `(?m)^aes-128-ccm +fae +open x3 `} {
		if !regexp.MustCompile(re).Match(text.Bytes()) {
			t.Errorf("text output does not match %s:\n%s", re, text.String())
		}
	}
	for _, re := range []string{`(?m)^alg,impl,op,bytes,cpb,gbps,spread,batch$`, `(?m)^aes-128-ccm,fae,seal,1500,[^,]+,[^,]+,[^,]+,3$`, `(?m)^aes-128-ccm,fae,seal,1500,[^,]+,[^,]+,[^,]+,$`} {
		if !regexp.MustCompile(re).Match(csv.Bytes()) {
			t.Errorf("CSV output does not match %s:\n%s", re, csv.String())
		}
	}
	var doc struct {
		Results []map[string]any `json:"results"`
		Summary []map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range doc.Results {
		if b, ok := res["batch"]; ok {
			if b != 3.0 {
				t.Errorf("JSON result %v: batch %v", res, b)
			}
			n++
		}
	}
	if n != 2*len(sizes) {
		t.Errorf("%d JSON results with a batch, want %d", n, 2*len(sizes))
	}
	for _, s := range doc.Summary {
		for _, f := range []string{"ipi_batch", "ipi_mixed", "ipi_mixed_batch"} {
			if _, ok := s[f]; ok != (s["alg"] == "aes-128-ccm" && s["impl"] == implFae) {
				t.Errorf("JSON summary %v: %s present %v", s, f, ok)
			}
		}
	}
	// Single messages' figures and plots are as without --batch.
	for _, p := range r.Panels() {
		for _, l := range p.Lines {
			if l.Impl != implOpenSSL && len(l.Bytes) != len(sizes) {
				t.Errorf("panel %q, line %s (%s): %d points, want %d", p.Title, l.Alg, l.Impl, len(l.Bytes), len(sizes))
			}
		}
	}
}

// TestCounterNonces checks the batches' nonces: distinct, i big-endian in
// the last bytes, the first the single calls' (zero), each its own slice.
func TestCounterNonces(t *testing.T) {
	for _, size := range []int{1, 2, 12, 16} {
		k := 300
		if size == 1 {
			k = 256
		}
		nonces := counterNonces(k, size)
		seen := map[string]bool{}
		for i, n := range nonces {
			if len(n) != size || cap(n) != size {
				t.Fatalf("size %d: nonce %d has len %d cap %d", size, i, len(n), cap(n))
			}
			var v int
			for _, b := range n {
				v = v<<8 | int(b)
			}
			if v != i || seen[string(n)] {
				t.Fatalf("size %d: nonce %d is %x", size, i, n)
			}
			seen[string(n)] = true
		}
	}
}
