# Sourced by setup.sh, test.sh and go-wine-exec: the Wine prefix pidlint's
# Windows tests run in, and the environment Wine needs to run headless.

: "${XDG_CACHE_HOME:=$HOME/.cache}"
export WINEPREFIX="${PIDLINT_WINEPREFIX:-$XDG_CACHE_HOME/pidlint/wineprefix}"
export WINEARCH=win64
# No Wine debug channels: the test binaries' output is all that is printed.
export WINEDEBUG=-all
# Load the ProcessPrng shim (native) before any builtin of the same name, and
# do not offer to install Mono or Gecko while creating the prefix.
export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml="
# Headless: never try to open a window.
unset DISPLAY WAYLAND_DISPLAY

# pidlint_wine prints the Wine loader that runs 64-bit programs, or nothing.
pidlint_wine() {
	local w
	for w in wine64 /usr/lib/wine/wine64 wine; do
		if command -v "$w" >/dev/null 2>&1; then
			command -v "$w"
			return 0
		fi
	done
	return 1
}

# pidlint_wineserver prints the wineserver matching pidlint_wine, or nothing.
pidlint_wineserver() {
	local w
	for w in wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
		if command -v "$w" >/dev/null 2>&1; then
			command -v "$w"
			return 0
		fi
	done
	return 1
}
