package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/internal/sizes"
)

const listHelp = `Prints one line per algorithm, sorted by name: NAME KEY NONCE TAG NOTE.
Sizes are in bytes; where several are allowed, the default follows in
parentheses, as in 1..15(12).
`

func list(args []string, _ io.Reader, stdout io.Writer) error {
	if len(args) > 0 {
		return usageErrorf("list takes no arguments")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, info := range fae.Algorithms() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", info.Name, info.KeySize,
			sizeList(info.NonceSizes, info.NonceSize), sizeList(info.TagSizes, info.TagSize), info.Note)
	}
	return tw.Flush()
}

// sizeList writes the allowed sizes compactly ("12", "16,32", "1..15",
// "4,6,..,16"), and the default after them when there is a choice.
func sizeList(s []int, def int) string {
	if len(s) == 1 {
		return strconv.Itoa(s[0])
	}
	return fmt.Sprintf("%s(%d)", sizes.Format(s), def)
}
