// libplist's C API (plist_from_bin, plist_to_bin, plist_from_xml, plist_to_xml, plist_free …).
#include <plist/plist.h>
