package filter

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/a.go b/a.go
index 1111111..2222222 100644
--- a/a.go
+++ b/a.go
@@ -3,0 +4,2 @@ func f() {
+	x := 1
+++ looks like a header but is content
@@ -10 +12 @@ func g() {
-	old
+	new
@@ -20,3 +23,0 @@ func h() {
-	gone
-	gone
-	gone
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package p
-
diff --git "a/sp ace\303\251.go" "b/sp ace\303\251.go"
--- "a/sp ace\303\251.go"
+++ "b/sp ace\303\251.go"
@@ -1 +1 @@
-package p
\ No newline at end of file
+package q
\ No newline at end of file
diff --git a/moved.go b/renamed.go
similarity index 90%
rename from moved.go
rename to renamed.go
--- a/moved.go
+++ b/renamed.go
@@ -5,0 +6 @@
+// added
`
	got, err := parseDiff(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{
		"a.go":       {4, 5, 12},
		"sp aceé.go": {1},
		"renamed.go": {6},
	}
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for file, lines := range want {
		if g := slices.Sorted(maps.Keys(got[file])); !slices.Equal(g, lines) {
			t.Errorf("%s: lines %v, want %v", file, g, lines)
		}
	}

	for _, bad := range []string{
		"+++ b/a.go\n@@ -1 +1,x @@\n",
		"+++ b/a.go\n@@ -1 +1,2 @@\n+one\ndiff --git a/b b/b\n",
		"+++ a.go\n",
	} {
		if _, err := parseDiff(strings.NewReader(bad)); err == nil {
			t.Errorf("parseDiff(%q): no error", bad)
		}
	}
}
