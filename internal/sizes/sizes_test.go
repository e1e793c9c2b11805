package sizes

import "testing"

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{12}, "12"},
		{[]int{16, 32}, "16,32"},
		{[]int{15, 16}, "15,16"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "1..15"},
		{[]int{4, 6, 8, 10, 12, 14, 16}, "4,6,..,16"},
		{[]int{4, 6, 8}, "4,6,8"},
		{[]int{1, 2, 4}, "1,2,4"},
	} {
		if got := Format(c.in); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
