#import "graph.h"

static uint64_t graphHash(NSUInteger i) { return ((uint64_t)i * 2654435761ULL) % (1ULL << 32); }

@implementation PeerCategory
@synthesize name = _name, code = _code;
- (void)encodeWithCoder:(NSCoder *)coder {
  [coder encodeObject:_name forKey:@"name"];
  [coder encodeInteger:_code forKey:@"code"];
}
- (id)initWithCoder:(NSCoder *)coder {
  if ((self = [super init])) {
    _name = [[coder decodeObjectForKey:@"name"] copy];
    _code = [coder decodeIntegerForKey:@"code"];
  }
  return self;
}
- (void)dealloc { [_name release]; [super dealloc]; }
@end

@implementation PeerItem
@synthesize name = _name, serialNumber = _serialNumber, valueInDollars = _valueInDollars, dateCreated = _dateCreated,
  category = _category, parent = _parent, children = _children;
- (void)encodeWithCoder:(NSCoder *)coder {
  [coder encodeObject:_name forKey:@"name"];
  [coder encodeObject:_serialNumber forKey:@"serialNumber"];
  [coder encodeInt64:_valueInDollars forKey:@"valueInDollars"];
  [coder encodeObject:_dateCreated forKey:@"dateCreated"];
  [coder encodeObject:_category forKey:@"category"];
  if (_parent) [coder encodeObject:_parent forKey:@"parent"];
  if (_children) [coder encodeObject:_children forKey:@"children"];
}
- (id)initWithCoder:(NSCoder *)coder {
  if ((self = [super init])) {
    _name = [[coder decodeObjectForKey:@"name"] copy];
    _serialNumber = [[coder decodeObjectForKey:@"serialNumber"] copy];
    _valueInDollars = [coder decodeInt64ForKey:@"valueInDollars"];
    _dateCreated = [[coder decodeObjectForKey:@"dateCreated"] retain];
    _category = [[coder decodeObjectForKey:@"category"] retain];
    // GNUstep registers the object before -initWithCoder: runs, so decoding `parent` on a cycle
    // returns the parent under construction (unlike swift-corelibs-foundation).
    _parent = [coder decodeObjectForKey:@"parent"];
    _children = [[coder decodeObjectForKey:@"children"] retain];
  }
  return self;
}
- (void)dealloc {
  [_name release]; [_serialNumber release]; [_dateCreated release]; [_category release]; [_children release];
  [super dealloc];
}
@end

@implementation PeerStore
@synthesize name = _name, categories = _categories, items = _items;
- (void)encodeWithCoder:(NSCoder *)coder {
  [coder encodeObject:_name forKey:@"name"];
  [coder encodeObject:_categories forKey:@"categories"];
  [coder encodeObject:_items forKey:@"items"];
}
- (id)initWithCoder:(NSCoder *)coder {
  if ((self = [super init])) {
    _name = [[coder decodeObjectForKey:@"name"] copy];
    _categories = [[coder decodeObjectForKey:@"categories"] retain];
    _items = [[coder decodeObjectForKey:@"items"] retain];
  }
  return self;
}
- (void)dealloc { [_name release]; [_categories release]; [_items release]; [super dealloc]; }

+ (PeerStore *)storeWithCount:(NSUInteger)count {
  PeerStore *store = [[[PeerStore alloc] init] autorelease];
  store.name = @"Store";
  NSMutableArray *categories = [NSMutableArray arrayWithCapacity:50];
  for (NSInteger c = 0; c < 50; c++) {
    PeerCategory *category = [[PeerCategory alloc] init];
    category.name = [NSString stringWithFormat:@"Category-%02ld", (long)c];
    [category setCode:1000 + c];
    [categories addObject:category];
    [category release];
  }
  NSMutableArray *items = [NSMutableArray arrayWithCapacity:count];
  for (NSUInteger i = 0; i < count; i++) {
    uint64_t h = graphHash(i);
    PeerItem *item = [[PeerItem alloc] init];
    char name[64];
    snprintf(name, sizeof name, i % 10 == 7 ? "\u5546\u54c1 %lu \U0001F381" : "Item %lu", (unsigned long)i);
    item.name = [NSString stringWithUTF8String:name];
    item.serialNumber = [NSString stringWithFormat:@"%08llX", (unsigned long long)h];
    item.valueInDollars = (int64_t)(h % 100000) - 5000;
    item.dateCreated = [NSDate dateWithTimeIntervalSinceReferenceDate:700000000.0 + 37.0 * i];
    item.category = [categories objectAtIndex:h % 50];
    [items addObject:item];
    [item release];
  }
  for (NSUInteger i = 0; i + 2 < count; i += 1000) {
    PeerItem *parent = [items objectAtIndex:i];
    PeerItem *first = [items objectAtIndex:i + 1], *second = [items objectAtIndex:i + 2];
    parent.children = [NSArray arrayWithObjects:first, second, nil];
    first.parent = parent;
    second.parent = parent;
  }
  store.categories = categories;
  store.items = items;
  return store;
}
@end

NSString *verifyGraph(PeerStore *store, NSUInteger count) {
  if (![store isKindOfClass:[PeerStore class]]) return @"the root is not a Store";
  if (![store.name isEqualToString:@"Store"]) return @"store name";
  if (store.items.count != count) return [NSString stringWithFormat:@"%lu items", (unsigned long)store.items.count];
  if (store.categories.count != 50) return @"categories";
  int64_t expected = 0, sum = 0;
  for (NSUInteger i = 0; i < count; i++) expected += (int64_t)(graphHash(i) % 100000) - 5000;
  NSHashTable *distinct = [NSHashTable hashTableWithOptions:NSPointerFunctionsObjectPointerPersonality];
  NSUInteger parents = 0;
  for (PeerItem *item in store.items) {
    sum += item.valueInDollars;
    if (item.category == nil) return @"an item without a category";
    [distinct addObject:item.category];
    if (item.children) {
      parents++;
      if (item.children.count != 2) return @"a cycle parent without two children";
      for (PeerItem *child in item.children) {
        if (child.parent != item) return @"a child's parent is not the parent that lists it";
      }
    }
  }
  if (sum != expected) return [NSString stringWithFormat:@"sum %lld, expected %lld", (long long)sum, (long long)expected];
  if (distinct.count != 50) return @"distinct categories";
  for (PeerCategory *category in store.categories) {
    if (![distinct containsObject:category]) return @"items' categories are not the store's";
  }
  NSUInteger expectedParents = 0;
  for (NSUInteger i = 0; i + 2 < count; i += 1000) expectedParents++;
  if (parents != expectedParents) return @"cycle parents";
  return nil;
}

/// `store <name> <categories> <items>`, `category <index> <name> <code>`, then per item
/// `item <index> <name> <serial> <value> <seconds since 2001> <category index> <parent index or -> <child indices or ->`
/// (indices into the store's arrays, found by identity, so shared references and cycles show).
void dumpGraph(PeerStore *store, FILE *out) {
  NSMapTable *categoryIndex = [NSMapTable mapTableWithKeyOptions:NSPointerFunctionsObjectPointerPersonality
                                                    valueOptions:NSPointerFunctionsIntegerPersonality | NSPointerFunctionsOpaqueMemory];
  NSMapTable *itemIndex = [NSMapTable mapTableWithKeyOptions:NSPointerFunctionsObjectPointerPersonality
                                                valueOptions:NSPointerFunctionsIntegerPersonality | NSPointerFunctionsOpaqueMemory];
  fprintf(out, "store %s %lu %lu\n", [store.name UTF8String], (unsigned long)store.categories.count,
          (unsigned long)store.items.count);
  NSUInteger index = 0;
  for (PeerCategory *category in store.categories) {
    [categoryIndex setObject:(id)(index + 1) forKey:category];
    fprintf(out, "category %lu %s %ld\n", (unsigned long)index++, [category.name UTF8String], (long)category.code);
  }
  index = 0;
  for (PeerItem *item in store.items) [itemIndex setObject:(id)(++index) forKey:item];
  index = 0;
  for (PeerItem *item in store.items) {
    long category = (long)(NSUInteger)[categoryIndex objectForKey:item.category] - 1;
    fprintf(out, "item %lu %s %s %lld %.0f %ld ", (unsigned long)index++, [item.name UTF8String],
            [item.serialNumber UTF8String], (long long)item.valueInDollars,
            [item.dateCreated timeIntervalSinceReferenceDate], category);
    if (item.parent) fprintf(out, "%ld ", (long)(NSUInteger)[itemIndex objectForKey:item.parent] - 1);
    else fprintf(out, "- ");
    if (item.children) {
      NSUInteger n = 0;
      for (PeerItem *child in item.children) {
        fprintf(out, "%s%ld", n++ ? "," : "", (long)(NSUInteger)[itemIndex objectForKey:child] - 1);
      }
      fprintf(out, "\n");
    } else {
      fprintf(out, "-\n");
    }
  }
}
