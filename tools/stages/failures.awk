# Reads a failed stage's output and prints one line for each test that
# failed and why, for the summary of tools/stages/run.sh:
#
#   PKG: TEST: its first line of output (file:line: message, or the panic)
#   PKG: timed out after D, running TEST (T), ...   (go test -timeout)
#   PKG: build failed: the first compiler error
#
# A failed stage in which no test failed (gofmt, go vet, a script) gets
# the last lines of its output that are not make's own. At most 12 lines.

function indent(s) {
	match(s, /^[ \t]*/)
	return RLENGTH
}

function add(s) {
	pending[npending++] = s
}

# flush prefixes the entries seen since the last package result with pkg.
function flush(pkg,   k) {
	for (k = 0; k < npending; k++) {
		out[nout++] = (pkg == "" ? "" : pkg ": ") pending[k]
	}
	npending = 0
}

{
	sub(/\r$/, "")
	tail[NR % 4] = $0
}

# The line after a "--- FAIL:" says why, when it is the test's own output.
failname != "" {
	if (indent($0) > failindent && $0 !~ /^[ \t]*--- /) {
		msg = $0
		sub(/^[ \t]+/, "", msg)
		add(failname ": " msg)
	} else if ($0 ~ /^panic: / && $0 !~ /^panic: test timed out after /) {
		add(failname ": " $0)
	} else if (!(indent($0) > failindent && $0 ~ /^[ \t]*--- FAIL: /)) {
		add(failname ": failed without a message")
	}
	failname = ""
}

/^[ \t]*--- FAIL: / {
	failindent = indent($0)
	failname = $0
	sub(/^[ \t]*--- FAIL: /, "", failname)
	sub(/ \([0-9.]+s\)$/, "", failname)
	next
}

/^panic: test timed out after / {
	timeout = $0
	sub(/^panic: test timed out after /, "", timeout)
	running = ""
	intimeout = 1
	next
}
intimeout && /^\trunning tests:$/ { next }
intimeout && /^\t\t/ {
	test = $0
	sub(/^\t\t/, "", test)
	running = running (running == "" ? "" : ", ") test
	next
}
intimeout {
	add("timed out after " timeout (running == "" ? "" : ", running " running))
	intimeout = 0
}

/^# / {
	buildpkg = substr($0, 3)
	builderr = ""
	next
}
buildpkg != "" && builderr == "" {
	builderr = $0
}

/^FAIL\t.*\[(build|setup) failed\]$/ {
	what = $0 ~ /setup failed\]$/ ? "setup failed" : "build failed"
	pkg = $0
	sub(/^FAIL\t/, "", pkg)
	sub(/ \[(build|setup) failed\]$/, "", pkg)
	add(what (builderr == "" ? "" : ": " builderr))
	flush(pkg)
	buildpkg = ""
	next
}
/^FAIL\t[^ \t]+(\t|$)/ {
	flush($2)
	next
}
END {
	if (intimeout) {
		add("timed out after " timeout (running == "" ? "" : ", running " running))
	}
	flush("")
	if (nout == 0) {
		# No test named: the stage's last lines, without make's.
		for (k = NR - 3; k <= NR; k++) {
			if (k > 0 && tail[k % 4] !~ /^make(\[[0-9]+\])?: \*\*\* / && tail[k % 4] != "") {
				out[nout++] = tail[k % 4]
			}
		}
	}
	for (k = 0; k < nout && k < 12; k++) {
		print out[k]
	}
	if (nout > 12) {
		print "... and " (nout - 12) " more"
	}
}
