// The whole of libuv, imported into Swift as the `CLibUV` module.
#ifndef LIFEBUS_CLIBUV_SHIM_H
#define LIFEBUS_CLIBUV_SHIM_H
#include <uv.h>
#endif
