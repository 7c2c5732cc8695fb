/* cvcuda-c: status codes and the per-thread last error message.
 *
 * Every function that can fail returns a cvStatus. On failure it also stores a message for the calling thread that
 * names the function, the argument, the offending value and the rule, e.g.
 * "cvTensorWrap: strides[2]=6 is not a multiple of itemsize 4". The message stays until the next failing call on
 * the same thread. Successful calls do not clear it. CV_NOT_READY (cvStreamQuery) is an answer, not a failure: it
 * stores no message. The library never prints. */
#ifndef CVCUDA_STATUS_H
#define CVCUDA_STATUS_H

#include "export.h"

CV_EXTERN_C_BEGIN

/** Result of a call. Values are fixed forever; new codes are only appended. */
typedef enum cvStatus {
    CV_SUCCESS = 0,
    CV_ERROR_INVALID_ARGUMENT = 1, /**< an argument breaks a documented rule (the message names it) */
    CV_ERROR_NOT_SUPPORTED = 2,    /**< well-formed but not supported (e.g. complex typestr, a layout an op lacks) */
    CV_ERROR_OUT_OF_MEMORY = 3,    /**< host or device allocation failed */
    CV_ERROR_NO_DEVICE = 4,        /**< no CUDA device or driver available */
    CV_ERROR_CUDA = 5,             /**< the CUDA runtime reported an error (the message carries its name) */
    CV_ERROR_INVALID_STATE = 6,    /**< the call is not allowed now (e.g. a device sync during graph capture) */
    CV_ERROR_INTERNAL = 7,         /**< a bug in the library; please report the message */
    CV_NOT_READY = 8,              /**< not an error: work is still pending (cvStreamQuery; CUDA's cudaErrorNotReady) */
    CV_STATUS_FORCE_32BIT = 0x7fffffff
} cvStatus;

/** Stable name of a status ("CV_SUCCESS", "CV_ERROR_INVALID_ARGUMENT", ...); "CV_STATUS_UNKNOWN" for values not in
 *  the enum. Never NULL; the string is static. Cannot fail. */
CV_API const char *cvStatusName(cvStatus status);

/** Message of the last failing call made by this thread; "" if none failed yet. Never NULL. The pointer stays
 *  valid until this thread's next call into the library. Cannot fail. */
CV_API const char *cvGetLastErrorMessage(void);

CV_EXTERN_C_END
#endif /* CVCUDA_STATUS_H */
