/* cvcuda-c: symbol export and calling conventions shared by every public header. */
#ifndef CVCUDA_EXPORT_H
#define CVCUDA_EXPORT_H

#if defined(CVCUDA_C_BUILDING) && defined(__GNUC__)
#define CV_API __attribute__((visibility("default")))
#else
#define CV_API
#endif

#ifdef __cplusplus
#define CV_EXTERN_C_BEGIN extern "C" {
#define CV_EXTERN_C_END }
#else
#define CV_EXTERN_C_BEGIN
#define CV_EXTERN_C_END
#endif

#endif /* CVCUDA_EXPORT_H */
