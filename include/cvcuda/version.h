/* cvcuda-c: library version, at compile time (macros) and at run time (cvGetVersion). */
#ifndef CVCUDA_VERSION_H
#define CVCUDA_VERSION_H

#include <stdint.h>
#include "export.h"

#define CVCUDA_C_VERSION_MAJOR 0
#define CVCUDA_C_VERSION_MINOR 1
#define CVCUDA_C_VERSION_PATCH 0
/** MAJOR*10000 + MINOR*100 + PATCH, as zstd's ZSTD_VERSION_NUMBER. */
#define CVCUDA_C_VERSION_NUMBER (CVCUDA_C_VERSION_MAJOR * 10000 + CVCUDA_C_VERSION_MINOR * 100 + CVCUDA_C_VERSION_PATCH)

CV_EXTERN_C_BEGIN

/** Version of the library actually loaded, encoded as CVCUDA_C_VERSION_NUMBER. Compare it with the macro to detect a
 *  header/library mismatch. Cannot fail; needs no GPU; thread-safe. */
CV_API uint32_t cvGetVersion(void);

CV_EXTERN_C_END
#endif /* CVCUDA_VERSION_H */
