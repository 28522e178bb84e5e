public enum PlistToolPlaceholder {}
