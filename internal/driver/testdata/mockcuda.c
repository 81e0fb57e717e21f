// A stand-in for libcuda.so.1 with the C signatures of the entry points nugo
// binds (only the "_v2" names where CUDA's headers use them), for abi_test.go:
// each call records its arguments as the C callee sees them and answers with
// values the test recognises, so the purego binding's argument order, widths,
// out-parameters and write-backs are checked without a GPU. Built by the test
// with the system C compiler; no CUDA header is needed.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

// Recorded values, read back with mock_get(field).
enum {
	F_INIT_FLAGS, F_ORDINAL, F_NAME_LEN, F_NAME_DEV, F_ATTR, F_ATTR_DEV, F_TOTAL_DEV,
	F_RETAIN_DEV, F_RELEASE_DEV, F_CTX_SET, F_ALLOC_SIZE, F_FREED, F_MEMSET_PTR,
	F_MEMSET_VALUE, F_MEMSET_N, F_COPY_DST, F_COPY_SRC, F_COPY_N, F_COPY_STREAM,
	F_COPY_SUM, F_HOST_SIZE, F_HOST_FLAGS, F_HOST_FREED, F_JIT_NOPTS, F_JIT_KEYS,
	F_JIT_IMAGE_LEN, F_JIT_OPT_LEVEL, F_JIT_MAX_REGS, F_FUNC_MOD, F_FUNC_NAME_LEN,
	F_UNLOADED, F_GLOBAL_MOD, F_FATTR, F_FATTR_FUNC, F_FSET_FUNC, F_FSET_ATTR,
	F_FSET_VALUE, F_LAUNCH_F, F_GX, F_GY, F_GZ, F_BX, F_BY, F_BZ, F_SHM, F_LAUNCH_STREAM,
	F_EXTRA, F_NPARAMS, F_P0, F_P1, F_P2, F_P3, F_STREAM_FLAGS, F_STREAM_ARG,
	F_EVENT_FLAGS, F_EVENT_ARG, F_RECORD_STREAM, F_ELAPSED_START, F_ELAPSED_END,
	F_OCC_FUNC, F_OCC_CALLBACK, F_OCC_DYN, F_OCC_LIMIT, F_REG_PTR, F_REG_SIZE, F_REG_FLAGS,
	F_UNREG_PTR, F_MAPPED_PTR, F_MAPPED_FLAGS, F_MANAGED_SIZE, F_MANAGED_FLAGS,
	F_SET_LIMIT, F_SET_LIMIT_VALUE, F_GET_LIMIT, F_WAIT_FLAGS, F_PROFILER,
	F_MEMSET_STREAM, F_COOP, F_OCC_BLOCK,
	F_PREFETCH_PTR, F_PREFETCH_N, F_PREFETCH_DEV, F_PREFETCH_STREAM,
	F_ADVISE_PTR, F_ADVISE_N, F_ADVISE_ADVICE, F_ADVISE_DEV, F_LOCATION_FORM,
	F_PEER_DEV, F_PEER_PEER, F_PEER_CTX, F_PEER_FLAGS, F_PCOPY_DST_CTX, F_PCOPY_SRC_CTX,
	F_COUNT
};
static uint64_t rec[F_COUNT];
static CUcontext current;

uint64_t mock_get(int field) { return field >= 0 && field < F_COUNT ? rec[field] : 0; }

// The kernel parameter values the next launch reads: how many and the size
// of each (the real driver knows them from the kernel's image).
static int param_sizes[8];
static int nparams;
void mock_set_params(int n, int s0, int s1, int s2, int s3) {
	nparams = n;
	param_sizes[0] = s0; param_sizes[1] = s1; param_sizes[2] = s2; param_sizes[3] = s3;
}

CUresult cuInit(unsigned int flags) { rec[F_INIT_FLAGS] = flags; return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 12345; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 3; return 0; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) {
	rec[F_ORDINAL] = (uint64_t)(int64_t)ordinal;
	if (ordinal < 0 || ordinal >= 3) return 101; // CUDA_ERROR_INVALID_DEVICE
	*d = 100 + ordinal;
	return 0;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
	rec[F_NAME_LEN] = (uint64_t)len; rec[F_NAME_DEV] = (uint64_t)dev;
	snprintf(name, (size_t)len, "mock device %d", dev);
	return 0;
}
CUresult cuDeviceGetAttribute(int *pi, int attr, CUdevice dev) {
	rec[F_ATTR] = (uint64_t)attr; rec[F_ATTR_DEV] = (uint64_t)dev;
	*pi = attr * 1000 + dev;
	return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
	rec[F_TOTAL_DEV] = (uint64_t)dev;
	*bytes = ((size_t)5 << 33) + (size_t)dev; // above 32 bits
	return 0;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
	rec[F_RETAIN_DEV] = (uint64_t)dev;
	*ctx = (CUcontext)(uintptr_t)(0xC0DE0000ull + (uint64_t)dev);
	return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { rec[F_RELEASE_DEV] = (uint64_t)dev; return 0; }
CUresult cuCtxSetCurrent(CUcontext c) { rec[F_CTX_SET] = (uint64_t)(uintptr_t)c; current = c; return 0; }
CUresult cuCtxGetCurrent(CUcontext *c) { *c = current; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	rec[F_ALLOC_SIZE] = n;
	*p = 0x7F0000000000ull + n;
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { rec[F_FREED] = p; return 0; }
CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, CUstream s) {
	rec[F_MEMSET_PTR] = p; rec[F_MEMSET_VALUE] = v; rec[F_MEMSET_N] = n; rec[F_MEMSET_STREAM] = (uintptr_t)s;
	return 0;
}
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) {
	rec[F_MEMSET_PTR] = p; rec[F_MEMSET_VALUE] = v; rec[F_MEMSET_N] = n;
	return 0;
}
CUresult cuMemsetD16_v2(CUdeviceptr p, unsigned short v, size_t n) {
	rec[F_MEMSET_PTR] = p; rec[F_MEMSET_VALUE] = v; rec[F_MEMSET_N] = n;
	return 0;
}
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned int v, size_t n) {
	rec[F_MEMSET_PTR] = p; rec[F_MEMSET_VALUE] = v; rec[F_MEMSET_N] = n;
	return 0;
}
CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
	*free = (size_t)3 << 33; *total = (size_t)7 << 33;
	return 0;
}

// Host-to-device copies record the sum of the bytes read; device-to-host
// copies write byte i = i*3+1.
static uint64_t sum(const unsigned char *p, size_t n) {
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++) s += p[i];
	return s;
}
static void fill(unsigned char *p, size_t n) {
	for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 3 + 1);
}
static void copy_rec(uint64_t dst, uint64_t src, size_t n, CUstream s) {
	rec[F_COPY_DST] = dst; rec[F_COPY_SRC] = src; rec[F_COPY_N] = n; rec[F_COPY_STREAM] = (uint64_t)(uintptr_t)s;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
	copy_rec(dst, (uintptr_t)src, n, 0); rec[F_COPY_SUM] = sum(src, n);
	return 0;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
	copy_rec((uintptr_t)dst, src, n, 0); fill(dst, n);
	return 0;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) { copy_rec(dst, src, n, 0); return 0; }
CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
	rec[F_PEER_DEV] = (uint64_t)dev; rec[F_PEER_PEER] = (uint64_t)peer;
	*can = dev != peer;
	return 0;
}
CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
	rec[F_PEER_CTX] = (uint64_t)(uintptr_t)peer; rec[F_PEER_FLAGS] = flags;
	return 0;
}
CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n, CUstream s) {
	copy_rec(dst, src, n, s);
	rec[F_PCOPY_DST_CTX] = (uint64_t)(uintptr_t)dctx; rec[F_PCOPY_SRC_CTX] = (uint64_t)(uintptr_t)sctx;
	return 0;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
	copy_rec(dst, (uintptr_t)src, n, s); rec[F_COPY_SUM] = sum(src, n);
	return 0;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s) {
	copy_rec((uintptr_t)dst, src, n, s); fill(dst, n);
	return 0;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
	copy_rec(dst, src, n, s);
	return 0;
}
CUresult cuMemHostAlloc(void **pp, size_t n, unsigned int flags) {
	rec[F_HOST_SIZE] = n; rec[F_HOST_FLAGS] = flags;
	*pp = malloc(n);
	return *pp ? 0 : 2;
}
CUresult cuMemFreeHost(void *p) { rec[F_HOST_FREED] = (uintptr_t)p; free(p); return 0; }
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned int flags) {
	rec[F_REG_PTR] = (uintptr_t)p; rec[F_REG_SIZE] = n; rec[F_REG_FLAGS] = flags;
	return 0;
}
CUresult cuMemHostUnregister(void *p) { rec[F_UNREG_PTR] = (uintptr_t)p; return 0; }
// The device address of mapped memory is its host address plus 1<<44, so
// that the test can tell the two apart.
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned int flags) {
	rec[F_MAPPED_PTR] = (uintptr_t)p; rec[F_MAPPED_FLAGS] = flags;
	*d = (CUdeviceptr)(uintptr_t)p + (1ull << 44);
	return 0;
}
// Managed memory: a 64-bit address that is also valid on the host (malloc,
// never freed: the test only reads it); sizes above 1<<40 are out of memory.
CUresult cuMemAllocManaged(CUdeviceptr *d, size_t n, unsigned int flags) {
	rec[F_MANAGED_SIZE] = n; rec[F_MANAGED_FLAGS] = flags;
	if (n > (1ull << 40)) return 2; // CUDA_ERROR_OUT_OF_MEMORY
	void *p = malloc(n);
	memset(p, 0x5a, n);
	*d = (CUdeviceptr)(uintptr_t)p;
	return 0;
}
// Managed memory hints in their CUdevice forms: the device is recorded
// sign-extended (CU_DEVICE_CPU is -1); a device below -1 is
// CUDA_ERROR_INVALID_DEVICE. The CUmemLocation forms of CUDA 12.2 (_v2)
// take other arguments: a binding that reached them would pass garbage,
// so they record that they were called and fail.
typedef struct { int type; int id; } CUmemLocation;
CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dst, CUstream s) {
	rec[F_PREFETCH_PTR] = p; rec[F_PREFETCH_N] = n;
	rec[F_PREFETCH_DEV] = (uint64_t)(int64_t)dst; rec[F_PREFETCH_STREAM] = (uintptr_t)s;
	return dst < -1 ? 101 : 0;
}
CUresult cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice dev) {
	rec[F_ADVISE_PTR] = p; rec[F_ADVISE_N] = n;
	rec[F_ADVISE_ADVICE] = (uint64_t)(int64_t)advice; rec[F_ADVISE_DEV] = (uint64_t)(int64_t)dev;
	return advice < 1 || advice > 6 ? 1 : 0; // CUDA_ERROR_INVALID_VALUE
}
CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CUmemLocation loc, unsigned int flags, CUstream s) {
	(void)p; (void)n; (void)loc; (void)flags; (void)s;
	rec[F_LOCATION_FORM]++;
	return 999; // CUDA_ERROR_UNKNOWN
}
CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, CUmemLocation loc) {
	(void)p; (void)n; (void)advice; (void)loc;
	rec[F_LOCATION_FORM]++;
	return 999;
}
// Limits: the value set is recorded; a get answers limit*1000 + 2^33, a
// size_t beyond 32 bits; limit 7 is CUDA_ERROR_UNSUPPORTED_LIMIT.
CUresult cuCtxSetLimit(int limit, size_t value) {
	rec[F_SET_LIMIT] = (uint64_t)(int64_t)limit; rec[F_SET_LIMIT_VALUE] = value;
	return limit == 7 ? 215 : 0;
}
CUresult cuCtxGetLimit(size_t *v, int limit) {
	rec[F_GET_LIMIT] = (uint64_t)(int64_t)limit;
	if (limit == 7) return 215;
	*v = (size_t)limit * 1000 + (1ull << 33);
	return 0;
}
// The profiler: start records 1, stop 2.
CUresult cuProfilerStart(void) { rec[F_PROFILER] = 1; return 0; }
CUresult cuProfilerStop(void) { rec[F_PROFILER] = 2; return 0; }

// cuModuleLoadDataEx: the image must be NUL-terminated text; "FAIL" in it
// fails with CUDA_ERROR_INVALID_PTX (218). Both logs are written and their
// filled lengths (with the NUL) written back, as is a wall time of 2.5 ms.
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, int *keys, void **vals) {
	const char *text = image;
	char *info = 0, *err = 0;
	unsigned int info_cap = 0, err_cap = 0;
	int fail = strstr(text, "FAIL") != 0;
	rec[F_JIT_NOPTS] = n; rec[F_JIT_IMAGE_LEN] = strlen(text);
	rec[F_JIT_KEYS] = 0; rec[F_JIT_OPT_LEVEL] = 99; rec[F_JIT_MAX_REGS] = 0;
	for (unsigned int i = 0; i < n; i++) {
		rec[F_JIT_KEYS] |= 1ull << keys[i];
		switch (keys[i]) {
		case 0: rec[F_JIT_MAX_REGS] = (unsigned int)(uintptr_t)vals[i]; break;
		case 3: info = vals[i]; break;
		case 4: info_cap = (unsigned int)(uintptr_t)vals[i]; break;
		case 5: err = vals[i]; break;
		case 6: err_cap = (unsigned int)(uintptr_t)vals[i]; break;
		case 7: rec[F_JIT_OPT_LEVEL] = (unsigned int)(uintptr_t)vals[i]; break;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		switch (keys[i]) {
		case 2: { float ms = 2.5f; memcpy(&vals[i], &ms, sizeof ms); break; }
		case 4: if (info && info_cap) {
			int w = snprintf(info, info_cap, "mock info: %u options", n);
			vals[i] = (void *)(uintptr_t)(w + 1 < (int)info_cap ? w + 1 : info_cap);
		} break;
		case 6: if (err && err_cap) {
			int w = fail ? snprintf(err, err_cap, "mock ptxas error: line 1: FAIL") : 0;
			if (!fail) err[0] = 0;
			vals[i] = (void *)(uintptr_t)(fail ? (w + 1 < (int)err_cap ? w + 1 : err_cap) : 0);
		} break;
		}
	}
	if (fail) return 218;
	*m = (CUmodule)(uintptr_t)0x3000;
	return 0;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
	rec[F_FUNC_MOD] = (uintptr_t)m; rec[F_FUNC_NAME_LEN] = strlen(name);
	if (strcmp(name, "missing") == 0) return 500; // CUDA_ERROR_NOT_FOUND
	*f = (CUfunction)(uintptr_t)(0x4000 + strlen(name));
	return 0;
}
CUresult cuModuleUnload(CUmodule m) { rec[F_UNLOADED] = (uintptr_t)m; return 0; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, CUmodule m, const char *name) {
	rec[F_GLOBAL_MOD] = (uintptr_t)m;
	*p = 0x7E0000000000ull + strlen(name);
	*bytes = ((size_t)1 << 32) + 64;
	return 0;
}
CUresult cuFuncGetAttribute(int *pi, int attr, CUfunction f) {
	rec[F_FATTR] = (uint64_t)attr; rec[F_FATTR_FUNC] = (uintptr_t)f;
	*pi = -7 - attr; // negative: the sign must survive
	return 0;
}
CUresult cuFuncSetAttribute(CUfunction f, int attr, int value) {
	rec[F_FSET_FUNC] = (uintptr_t)f; rec[F_FSET_ATTR] = (uint64_t)attr; rec[F_FSET_VALUE] = (uint64_t)(int64_t)value;
	return 0;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction f,
		void *blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit) {
	rec[F_OCC_FUNC] = (uintptr_t)f; rec[F_OCC_CALLBACK] = (uintptr_t)blockSizeToDynamicSMemSize;
	rec[F_OCC_DYN] = (uint64_t)dynamicSMemSize; rec[F_OCC_LIMIT] = (uint64_t)(int64_t)blockSizeLimit;
	*minGridSize = -264; // negative: the sign must survive
	*blockSize = 640;
	return 0;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction f, int blockSize, size_t dynamicSMemSize) {
	rec[F_OCC_FUNC] = (uintptr_t)f; rec[F_OCC_BLOCK] = (uint64_t)(int64_t)blockSize;
	rec[F_OCC_DYN] = (uint64_t)dynamicSMemSize;
	*numBlocks = -6; // negative: the sign must survive
	return 0;
}

// cuLaunchKernel reads each parameter through kernelParams with the size
// mock_set_params gave, as the driver does with the sizes in the image.
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
		unsigned int bx, unsigned int by, unsigned int bz, unsigned int shm,
		CUstream s, void **params, void **extra) {
	rec[F_LAUNCH_F] = (uintptr_t)f;
	rec[F_GX] = gx; rec[F_GY] = gy; rec[F_GZ] = gz; rec[F_BX] = bx; rec[F_BY] = by; rec[F_BZ] = bz;
	rec[F_SHM] = shm; rec[F_LAUNCH_STREAM] = (uintptr_t)s; rec[F_EXTRA] = (uintptr_t)extra;
	rec[F_NPARAMS] = params ? (uint64_t)nparams : 0;
	rec[F_COOP] = 0;
	for (int i = 0; i < nparams && i < 4 && params; i++) {
		uint64_t v = 0;
		memcpy(&v, params[i], (size_t)param_sizes[i]);
		rec[F_P0 + i] = v;
	}
	return 0;
}

// cuLaunchCooperativeKernel is cuLaunchKernel without extra.
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
		unsigned int bx, unsigned int by, unsigned int bz, unsigned int shm,
		CUstream s, void **params) {
	CUresult r = cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shm, s, params, (void **)(uintptr_t)0xE);
	rec[F_EXTRA] = 0;
	rec[F_COOP] = 1;
	return r;
}

CUresult cuStreamCreate(CUstream *s, unsigned int flags) {
	rec[F_STREAM_FLAGS] = flags;
	*s = (CUstream)(uintptr_t)0x5000;
	return 0;
}
CUresult cuStreamDestroy_v2(CUstream s) { rec[F_STREAM_ARG] = (uintptr_t)s; return 0; }
CUresult cuStreamSynchronize(CUstream s) { rec[F_STREAM_ARG] = (uintptr_t)s; return 0; }
CUresult cuStreamQuery(CUstream s) { rec[F_STREAM_ARG] = (uintptr_t)s; return s ? 600 : 0; } // not ready
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
	rec[F_STREAM_ARG] = (uintptr_t)s; rec[F_EVENT_ARG] = (uintptr_t)e; rec[F_WAIT_FLAGS] = flags;
	return 0;
}
CUresult cuEventCreate(CUevent *e, unsigned int flags) {
	rec[F_EVENT_FLAGS] = flags;
	*e = (CUevent)(uintptr_t)(0x6000 + flags);
	return 0;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
	rec[F_EVENT_ARG] = (uintptr_t)e; rec[F_RECORD_STREAM] = (uintptr_t)s;
	return 0;
}
CUresult cuEventSynchronize(CUevent e) { rec[F_EVENT_ARG] = (uintptr_t)e; return 0; }
CUresult cuEventQuery(CUevent e) { rec[F_EVENT_ARG] = (uintptr_t)e; return 0; }
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
	rec[F_ELAPSED_START] = (uintptr_t)start; rec[F_ELAPSED_END] = (uintptr_t)end;
	*ms = 1.25f;
	return 0;
}
CUresult cuEventDestroy_v2(CUevent e) { rec[F_EVENT_ARG] = (uintptr_t)e; return 0; }

CUresult cuGetErrorName(CUresult code, const char **s) {
	switch (code) {
	case 101: *s = "CUDA_ERROR_INVALID_DEVICE"; return 0;
	case 218: *s = "CUDA_ERROR_INVALID_PTX"; return 0;
	case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
	case 600: *s = "CUDA_ERROR_NOT_READY"; return 0;
	}
	*s = 0;
	return 1;
}
CUresult cuGetErrorString(CUresult code, const char **s) {
	const char *name;
	if (cuGetErrorName(code, &name) != 0) { *s = 0; return 1; }
	*s = "described by the mock";
	return 0;
}
