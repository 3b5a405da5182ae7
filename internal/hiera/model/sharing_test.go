package model

import "testing"

func TestSharingIsBounded(t *testing.T) {
	share := &Sharing{}
	for i := 0; i < sharingMax+10; i++ {
		share.keyList([]any{int64(i), nil})
	}
	if share.count != sharingMax {
		t.Errorf("%d key lists kept, want at most %d", share.count, sharingMax)
	}
	h := share.HashOf([]any{int64(sharingMax + 5), "v"})
	if got, ok := h.Get(int64(sharingMax + 5)); !ok || got != "v" {
		t.Errorf("a hash past the bound: Get = %v, %v", got, ok)
	}
}
