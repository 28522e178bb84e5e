// libxml2's tree parser, for the Interface Builder document reader (InterfaceBuilder module).
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
