/* cuda_device.h: the few declarations device code needs, standing in for
 * CUDA's runtime headers (which Debian ships only in the 774 MB
 * nvidia-cuda-dev package). table.sh force-includes it when it runs NVIDIA's
 * device front end (cicc) on the .cu files without nvcc's host toolchain. */
#define __annotate__(a) __attribute__((a))
#define __location__(a) __annotate__(a)
#define __global__ __location__(global)
#define __device__ __location__(device)
#define __device_builtin__ __location__(device_builtin)
struct __device_builtin__ uint3 { unsigned int x, y, z; };
struct __device_builtin__ dim3 { unsigned int x, y, z; };
uint3 __device_builtin__ extern const threadIdx;
uint3 __device_builtin__ extern const blockIdx;
dim3 __device_builtin__ extern const blockDim;
dim3 __device_builtin__ extern const gridDim;
/* libdevice, linked by cicc from NVVMIR_LIBRARY_DIR. */
extern "C" __device__ double __nv_log10(double);
