package bench

import (
	"os"
	"testing"
	"time"
)

func TestZZSmoke(t *testing.T) {
	if os.Getenv("SMOKE") == "" {
		t.Skip()
	}
	start := time.Now()
	c := Config{Quick: true, Log: os.Stderr}
	if os.Getenv("SMOKE") == "full" {
		c = Config{Log: os.Stderr}
	}
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("took %v", time.Since(start))
	r.Write(os.Stdout, "text")
	if err := r.WriteDir("/tmp/smoke"); err != nil {
		t.Fatal(err)
	}
}
