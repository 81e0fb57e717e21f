// common.h: timing and output shared by the CUDA C side of nugo's GPU
// benchmark (scripts/gpu-check.sh builds each .cu with nvcc -O3). Every
// program prints one JSON line in the format of bench/gpu (nugo's side):
// kernel_ms is the median of REPS event-timed launches after two warm-ups,
// first_ms the first launch with its synchronization (after the context
// exists: cudaFree(0) runs first), launch_us the median host time of
// those launch calls (asynchronous, each on an idle stream).
#pragma once
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

// prog names the program in error messages ("bench/cuda vecadd"); arg sets it.
static char prog[64] = "bench/cuda";

// CHECK ends the program on a CUDA error with one line on stderr and exit
// status 1, which scripts/gpu-check.sh turns into the table's error entry:
//   bench/cuda vecadd: no CUDA-capable device is detected (cudaFree(0), common.h:LINE)
// No GPU, no driver, or an out-of-memory allocation all end here, not in a
// crash.
#define CHECK(call)                                                                    \
	do {                                                                               \
		cudaError_t err_ = (call);                                                     \
		if (err_ != cudaSuccess) {                                                     \
			const char *file_ = strrchr(__FILE__, '/');                                \
			fprintf(stderr, "%s: %s (%s, %s:%d)\n", prog, cudaGetErrorString(err_),     \
			        #call, file_ ? file_ + 1 : __FILE__, __LINE__);                    \
			exit(1);                                                                   \
		}                                                                              \
	} while (0)

// usage ends the program on a bad command line, the same way.
static void usage(const char *msg, const char *val) {
	fprintf(stderr, "%s: %s: %s\n", prog, msg, val);
	exit(2);
}

static const int REPS = 20;

struct Result {
	const char *workload;
	long long n;
	double kernel_ms = 0, first_ms = 0, launch_us = 0, bytes = 0;
	char check[64] = "";
	Result(const char *w, long long n_) : workload(w), n(n_) {}
};

static double median(std::vector<double> v) {
	if (v.empty()) return 0;
	std::sort(v.begin(), v.end());
	size_t m = v.size() / 2;
	return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

static double now_ms() {
	using namespace std::chrono;
	return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// measure fills the timings of r; launch(s) queues the kernel on stream s
// (0 is the legacy default stream).
template <typename F>
static void measure(Result &r, F launch) {
	double t0 = now_ms();
	launch((cudaStream_t)0);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	r.first_ms = now_ms() - t0;
	for (int i = 0; i < 2; i++) launch((cudaStream_t)0);
	CHECK(cudaDeviceSynchronize());

	cudaStream_t s;
	cudaEvent_t start, end;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&end));
	std::vector<double> times, host;
	for (int i = 0; i < REPS; i++) {
		CHECK(cudaEventRecord(start, s));
		double h0 = now_ms();
		launch(s);
		host.push_back((now_ms() - h0) * 1e3);
		CHECK(cudaEventRecord(end, s));
		CHECK(cudaEventSynchronize(end));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, start, end));
		times.push_back(ms);
	}
	r.kernel_ms = median(times);
	r.launch_us = median(host);
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaGetLastError());
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(end));
	CHECK(cudaStreamDestroy(s));
}

static void print(const Result &r) {
	printf("{\"impl\":\"cuda\",\"workload\":\"%s\",\"n\":%lld,\"kernel_ms\":%.6f,\"first_ms\":%.6f,"
	       "\"launch_us\":%.3f,\"bytes\":%.0f,\"check\":\"%s\"}\n",
	       r.workload, r.n, r.kernel_ms, r.first_ms, r.launch_us, r.bytes, r.check);
}

// number parses a command-line integer of at least min.
static long long number(const char *s, long long min) {
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min) {
		char msg[64];
		snprintf(msg, sizeof msg, "want an integer of at least %lld, not", min);
		usage(msg, s);
	}
	return v;
}

// arg names the program after argv[0] and returns argv[1] as a number of at
// least min, or def.
static long long arg(int argc, char **argv, long long def, long long min = 1) {
	const char *base = strrchr(argv[0], '/');
	snprintf(prog, sizeof prog, "bench/cuda %s", base ? base + 1 : argv[0]);
	return argc > 1 ? number(argv[1], min) : def;
}

// checksum_f sums n device values on the host, 6 significant digits.
template <typename T>
static void checksum_f(char *out, const T *d, size_t n) {
	std::vector<T> h(n);
	CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	double sum = 0;
	for (size_t i = 0; i < n; i++) sum += (double)h[i];
	snprintf(out, 64, "%.6g", sum);
}

static void context() { CHECK(cudaFree(0)); }
