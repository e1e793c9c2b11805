package bench

import (
	"math"
	"slices"
	"testing"
)

func TestIPI(t *testing.T) {
	got, ok := ipi(map[int]float64{44: 10, 552: 2, 576: 1.5, 1500: 1, 4096: 99})
	// 0.05·10 + 0.15·2 + 0.20·1.5 + 0.60·1 = 0.5 + 0.3 + 0.3 + 0.6
	if !ok || math.Abs(got-1.7) > 1e-12 {
		t.Errorf("ipi = %v, %v; want 1.7, true", got, ok)
	}
	if _, ok := ipi(map[int]float64{44: 10, 552: 2, 1500: 1}); ok {
		t.Error("ipi without 576 bytes reported a value")
	}
}

func TestRound(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0}, {0.123456, 0.1235}, {12.3456, 12.35}, {-0.0123456, -0.01235}, {123456, 123500},
	} {
		if got := round(tc.in); math.Abs(got-tc.want) > 1e-12*math.Abs(tc.want) {
			t.Errorf("round(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func sealRow(alg, impl string, cpb map[int]float64, ghz float64) []Result {
	var rs []Result
	for n, c := range cpb {
		rs = append(rs, Result{Alg: alg, Impl: impl, Op: "seal", Bytes: n, CPB: c, GBps: ghz / c})
	}
	return rs
}

func TestSummarize(t *testing.T) {
	const ghz = 4
	all := map[int]float64{44: 10, 552: 2, 576: 1.5, 1500: 1, 4096: 0.5, 16384: 0.4}
	var rs []Result
	rs = append(rs, sealRow("aes-128-ctr", implFae, map[int]float64{4096: 0.2, 16384: 0.2}, ghz)...)
	rs = append(rs, sealRow("aes-128-ocb3", implFae, all, ghz)...)
	rs = append(rs, Result{Alg: "aes-128-ocb3", Impl: implFae, Op: "open", Bytes: 4096, CPB: 9})
	rs = append(rs, sealRow("aes-128-ocb3", implOpenSSL, map[int]float64{4096: 0.6, 16384: 0.5}, ghz)...)
	rs = append(rs, sealRow("aes-128-ocb3", implProtonMail, map[int]float64{16384: 4}, ghz)...)
	sortResults(rs)
	ex := map[rowKey]extras{{"aes-128-ocb3", implFae}: {contextBytes: ptr(352), initCycles: ptr(310.0)}}
	ref := map[string]string{"aes-128-ocb3": "aes-128-ctr", "aes-128-ctr": "aes-128-ctr"}
	sum := summarize(rs, ex, ref)

	if len(sum) != 4 {
		t.Fatalf("got %d rows, want 4: %+v", len(sum), sum)
	}
	order := [][2]string{{"aes-128-ctr", implFae}, {"aes-128-ocb3", implFae}, {"aes-128-ocb3", implProtonMail}, {"aes-128-ocb3", implOpenSSL}}
	for i, o := range order {
		if sum[i].Alg != o[0] || sum[i].Impl != o[1] {
			t.Errorf("row %d is %s %s, want %s %s", i, sum[i].Alg, sum[i].Impl, o[0], o[1])
		}
	}
	eq := func(what string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, deref(got), want)
		}
	}
	ctr, ocb, pm, ossl := sum[0], sum[1], sum[2], sum[3]
	eq("ctr overhead", ctr.Overhead4096, 0)
	eq("ocb cpb_4096", ocb.CPB4096, 0.5)
	eq("ocb overhead", ocb.Overhead4096, 0.3)
	eq("ocb ipi", ocb.IPI, 1.7)
	eq("ocb cpb_16384", ocb.CPB16384, 0.4)
	eq("ocb gbps_4096", ocb.GBps4096, 8)
	eq("ocb init", ocb.InitCycles, 310)
	if ocb.ContextBytes == nil || *ocb.ContextBytes != 352 {
		t.Errorf("ocb context = %v, want 352", ocb.ContextBytes)
	}
	if want := map[string]float64{implOpenSSL: 1.25, implProtonMail: 10}; len(ocb.Speedup16384) != 2 ||
		ocb.Speedup16384[implOpenSSL] != want[implOpenSSL] || ocb.Speedup16384[implProtonMail] != want[implProtonMail] {
		t.Errorf("ocb speedups = %v, want %v", ocb.Speedup16384, want)
	}
	eq("openssl overhead", ossl.Overhead4096, 0.4)
	if ossl.IPI != nil || ossl.ContextBytes != nil || ossl.InitCycles != nil || ossl.Speedup16384 != nil {
		t.Errorf("openssl row has figures it cannot have: %+v", ossl)
	}
	if pm.CPB4096 != nil || pm.Overhead4096 != nil {
		t.Errorf("protonmail row has 4096-byte figures it was not measured at: %+v", pm)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestIPIMix checks that the mixed batch holds as many messages of each
// length as split its bytes as the IPI's weights, rounded (64: 34 of 44
// bytes, 8 of 552, 10 of 576, 12 of 1500), for batches of 64 and others,
// the same on every call.
func TestIPIMix(t *testing.T) {
	for _, n := range []int{64, 16, 100, 1000} {
		lengths := ipiMix(n)
		if len(lengths) != n {
			t.Fatalf("ipiMix(%d): %d lengths", n, len(lengths))
		}
		count := map[int]int{}
		for _, l := range lengths {
			count[l]++
		}
		total := 0.0
		for _, w := range ipiWeights {
			total += w.weight / float64(w.bytes)
		}
		for _, w := range ipiWeights {
			if ideal := float64(n) * w.weight / float64(w.bytes) / total; math.Abs(float64(count[w.bytes])-ideal) >= 1 {
				t.Errorf("ipiMix(%d): %d messages of %d bytes, want %.2f rounded", n, count[w.bytes], w.bytes, ideal)
			}
		}
	}
	if got := ipiMix(64); !slices.Equal(got, ipiMix(64)) {
		t.Error("ipiMix(64) differs between calls")
	}
}
