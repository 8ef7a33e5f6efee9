#include "CDIThreadLocal.h"

_Thread_local void *_Nullable c_di_resolution_stack C_DI_TLS_MODEL = 0;
