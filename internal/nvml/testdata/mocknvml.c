// A stand-in for libnvidia-ml.so.1 with the C signatures of the entry points
// nugo binds, for abi_test.go: each call records its arguments as the C
// callee sees them and answers with values the test recognises, so that the
// purego binding's argument order, widths, struct layouts and out-parameters
// are checked without a GPU. Built by the test with the system C compiler;
// no NVML header is needed.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int nvmlReturn_t;
typedef struct mock_device *nvmlDevice_t;
typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

enum { NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3, NVML_ERROR_INSUFFICIENT_SIZE = 7 };

// Recorded values, read back with mock_get(field).
enum { F_INITS, F_SHUTDOWNS, F_VERSION_LEN, F_INDEX, F_NAME_LEN, F_UUID_LEN, F_SENSOR,
	F_CLOCK, F_PROC_CALLS, F_PROC_COUNT_IN, F_COUNT };
static uint64_t rec[F_COUNT];
uint64_t mock_get(int f) { return f >= 0 && f < F_COUNT ? rec[f] : 0; }

// Handles: the addresses of two devices; anything else is refused.
static struct mock_device { int index; } devices[2] = {{0}, {1}};
static int devindex(nvmlDevice_t d) {
	for (int i = 0; i < 2; i++)
		if (d == &devices[i]) return i;
	return -1;
}

const char *nvmlErrorString(nvmlReturn_t r) {
	switch (r) {
	case NVML_ERROR_NOT_SUPPORTED: return "mock: Not Supported";
	case NVML_ERROR_INVALID_ARGUMENT: return "mock: Invalid Argument";
	default: return "mock: some error";
	}
}

nvmlReturn_t nvmlInit_v2(void) { rec[F_INITS]++; return NVML_SUCCESS; }
nvmlReturn_t nvmlShutdown(void) { rec[F_SHUTDOWNS]++; return NVML_SUCCESS; }

nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int len) {
	rec[F_VERSION_LEN] = len;
	snprintf(v, len, "%s", "999.88.77");
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) { *n = 2; return NVML_SUCCESS; }

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d) {
	rec[F_INDEX] = i;
	if (i >= 2) return NVML_ERROR_INVALID_ARGUMENT;
	*d = &devices[i];
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int len) {
	int i = devindex(d);
	rec[F_NAME_LEN] = len;
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(name, len, "Mock GPU %d", i);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int len) {
	int i = devindex(d);
	rec[F_UUID_LEN] = len;
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(uuid, len, "GPU-00000000-1111-2222-3333-44444444444%d", i);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u) {
	int i = devindex(d);
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	u->gpu = 40 + i;
	u->memory = 7 + i;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
	int i = devindex(d);
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	m->total = (141ULL << 30) + i;
	m->used = (3ULL << 32) + 5;
	m->free = m->total - m->used;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *t) {
	int i = devindex(d);
	rec[F_SENSOR] = (uint64_t)(int64_t)sensor;
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	*t = 50 + i;
	return NVML_SUCCESS;
}

// Device 1 has no power reading, as some boards do not.
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw) {
	int i = devindex(d);
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
	*mw = 123456;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz) {
	int i = devindex(d);
	rec[F_CLOCK] = (uint64_t)(int64_t)type;
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	if (type < 0 || type > 3) return NVML_ERROR_INVALID_ARGUMENT;
	*mhz = 1000 * type + 10 * i + 5;
	return NVML_SUCCESS;
}

// Device 0 runs three processes, device 1 none.
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count, nvmlProcessInfo_t *infos) {
	int i = devindex(d);
	rec[F_PROC_CALLS]++;
	rec[F_PROC_COUNT_IN] = *count;
	if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
	unsigned int n = i == 0 ? 3 : 0;
	if (*count < n) {
		*count = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (unsigned int k = 0; k < n; k++) {
		infos[k].pid = 4000 + k;
		infos[k].usedGpuMemory = (k == 2) ? ~0ULL : (1ULL << 33) + k;
		infos[k].gpuInstanceId = 0xFFFFFFFFu;
		infos[k].computeInstanceId = 10 + k;
	}
	*count = n;
	return NVML_SUCCESS;
}
