/* cvcuda-c: element types and their numpy typestr spelling (numpy "array interface" notation, as used by the
 * CUDA Array Interface). */
#ifndef CVCUDA_TYPES_H
#define CVCUDA_TYPES_H

#include <stdint.h>
#include "export.h"
#include "status.h"

CV_EXTERN_C_BEGIN

/** Largest rank a tensor may have. */
#define CV_MAX_DIMS 8

/** Element type. 0 means "unspecified"; values are fixed forever. */
typedef enum cvDataType {
    CV_DTYPE_UNSPECIFIED = 0,
    CV_DTYPE_BOOL = 1,     /**< |b1, 1 byte */
    CV_DTYPE_UINT8 = 2,    /**< |u1 */
    CV_DTYPE_INT8 = 3,     /**< |i1 */
    CV_DTYPE_UINT16 = 4,   /**< <u2 */
    CV_DTYPE_INT16 = 5,    /**< <i2 */
    CV_DTYPE_UINT32 = 6,   /**< <u4 */
    CV_DTYPE_INT32 = 7,    /**< <i4 */
    CV_DTYPE_UINT64 = 8,   /**< <u8 */
    CV_DTYPE_INT64 = 9,    /**< <i8 */
    CV_DTYPE_FLOAT16 = 10, /**< <f2 */
    CV_DTYPE_BFLOAT16 = 11,/**< <V2 with an explicit dtype (numpy has no bfloat16 typestr; PyTorch exports <V2) */
    CV_DTYPE_FLOAT32 = 12, /**< <f4 */
    CV_DTYPE_FLOAT64 = 13, /**< <f8 */
    CV_DTYPE_COMPLEX64 = 14,  /**< <c8: two float32 (real, imaginary), as numpy complex64 */
    CV_DTYPE_COMPLEX128 = 15, /**< <c16: two float64 (real, imaginary), as numpy complex128 */
    CV_DTYPE_FORCE_32BIT = 0x7fffffff
} cvDataType;

/** Parses a numpy typestr ("|u1", "<f4", "=i2", ...) into *out. Little-endian ('<'), native ('=') and
 *  not-applicable ('|') byte orders are accepted on this little-endian library; '>' is rejected.
 *  "<V2" yields CV_DTYPE_UNSPECIFIED with CV_SUCCESS (an opaque 2-byte type: the caller must say which).
 *  Errors: CV_ERROR_INVALID_ARGUMENT for NULL arguments, a big-endian, sizeless, malformed or unknown typestr;
 *  CV_ERROR_NOT_SUPPORTED for a well-formed type the library does not handle (complex other than '<c8'/'<c16', datetime 'M'/'m',
 *  object 'O', strings 'S'/'U', other 'V' sizes). Needs no GPU. */
CV_API cvStatus cvDataTypeFromTypestr(const char *typestr, cvDataType *out);

/** The typestr of a dtype ("|u1", "<f4", "<V2" for bfloat16); "" for values not in the enum. Never NULL. */
CV_API const char *cvDataTypeTypestr(cvDataType dtype);

/** Lower-case name ("uint8", "bfloat16", ...); "unspecified" for 0 and unknown values. Never NULL. */
CV_API const char *cvDataTypeName(cvDataType dtype);

/** Size of one element in bytes; 0 for CV_DTYPE_UNSPECIFIED and values not in the enum. */
CV_API int32_t cvDataTypeItemSize(cvDataType dtype);

CV_EXTERN_C_END
#endif /* CVCUDA_TYPES_H */
