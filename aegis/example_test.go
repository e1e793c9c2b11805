package aegis_test

import (
	"fmt"

	"github.com/faelabs/fae/aegis"
)

func ExampleAEAD_NewDecrypter() {
	a, _ := aegis.New128L(make([]byte, 16), 16)
	nonce := make([]byte, a.NonceSize())
	sealed := a.Seal(nil, nonce, []byte("hello, world"), nil)
	ct, tag := sealed[:len(sealed)-16], sealed[len(sealed)-16:]

	d := a.NewDecrypter(nonce, nil)
	pt := make([]byte, len(ct))
	d.XORKeyStream(pt[:5], ct[:5])
	d.XORKeyStream(pt[5:], ct[5:])
	if err := d.Verify(tag); err != nil {
		return // discard pt
	}
	fmt.Printf("%s\n", pt)
	// Output: hello, world
}
