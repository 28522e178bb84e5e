// The item-store graph of GRAPH.md with GNUstep Base's NSObject subclasses adopting NSCoding: the
// archived class names (Store, Category, Item, mapped with -setClassName:forClass: because GNUstep's runtime already names a type Category) and keys are those of archive-bench's Stasis and
// Foundation versions, so the archives are interchangeable.
#import <Foundation/Foundation.h>

@interface PeerCategory : NSObject <NSCoding> {
  NSString *_name;
  NSInteger _code;
}
@property (nonatomic, copy) NSString *name;
@property (nonatomic) NSInteger code;
@end

@interface PeerItem : NSObject <NSCoding> {
  NSString *_name, *_serialNumber;
  int64_t _valueInDollars;
  NSDate *_dateCreated;
  PeerCategory *_category;
  PeerItem *_parent;
  NSArray *_children;
}
@property (nonatomic, copy) NSString *name;
@property (nonatomic, copy) NSString *serialNumber;
@property (nonatomic) int64_t valueInDollars;
@property (nonatomic, retain) NSDate *dateCreated;
@property (nonatomic, retain) PeerCategory *category;
@property (nonatomic, assign) PeerItem *parent;  // unretained: the parent holds its children
@property (nonatomic, retain) NSArray *children;
@end

@interface PeerStore : NSObject <NSCoding> {
  NSString *_name;
  NSArray *_categories, *_items;
}
@property (nonatomic, copy) NSString *name;
@property (nonatomic, retain) NSArray *categories;
@property (nonatomic, retain) NSArray *items;
+ (PeerStore *)storeWithCount:(NSUInteger)count;
@end

/// Checks a decoded graph against GRAPH.md's formulas; nil when it holds, else what failed.
NSString *verifyGraph(PeerStore *store, NSUInteger count);
/// The canonical dump (one line per object, see graph.m) that the interoperability test compares.
void dumpGraph(PeerStore *store, FILE *out);
