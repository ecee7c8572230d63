/*
 * bcryptprimitives.dll for Wine 8: exports ProcessPrng, which the Go runtime
 * (Go >= 1.22) loads at startup to get random bytes and which Wine 8 lacks.
 * It forwards to advapi32!SystemFunction036 (RtlGenRandom).
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll \
 *            processprng.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* RtlGenRandom takes a ULONG length: feed it in chunks. */
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
