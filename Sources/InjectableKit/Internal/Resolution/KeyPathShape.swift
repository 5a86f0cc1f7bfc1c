/// Whether a keypath names one key (`\.date`) or reaches through a key to a property of its
/// value (`\.date.now`).
///
/// A keypath of several components runs the first key's getter directly, past the resolver:
/// no override of the key, scope or diagnostics would see it. Swift offers no way to take a
/// keypath apart, so such a resolution cannot be routed through its first key; it stops,
/// naming the fix (`resolve(\.date).now`), or, in a test, fails the test (`Failure.mistake`).
///
/// The answer comes from the keypath object's buffer header, which the standard library marks
/// when the keypath has one component (`_SwiftKeyPathBufferHeader_IsSingleComponentFlag`). A
/// runtime whose keypaths do not carry the mark (checked once, on two keypaths of known
/// shape) is never answered "several": the check then lets every keypath through.
enum KeyPathShape {
    /// The header's size bits: 0 for the identity keypath (`\.self`).
    private static let sizeMask: UInt32 = 0x00FF_FFFF
    private static let singleComponentFlag: UInt32 = 0x2000_0000
    /// Where the buffer header lies in a keypath object: after the object header (two words)
    /// and the keypath's one stored property (a pointer).
    private static let headerOffset = 3 * MemoryLayout<UnsafeRawPointer>.size

    /// Whether this runtime marks keypaths as `KeyPathShape` reads them.
    private static let isReadable: Bool = {
        let one = header(of: \Injections.shapeProbe)
        let two = header(of: \Injections.shapeProbe.component)
        return one & singleComponentFlag != 0 && one & sizeMask != 0
            && two & singleComponentFlag == 0 && two & sizeMask != 0
    }()

    /// Whether `keyPath` has more than one component.
    @inline(__always)
    static func hasSeveralComponents(_ keyPath: AnyKeyPath) -> Bool {
        let word = header(of: keyPath)
        guard word & singleComponentFlag == 0, word & sizeMask != 0 else { return false }
        return isReadable
    }

    private static func header(of keyPath: AnyKeyPath) -> UInt32 {
        withExtendedLifetime(keyPath) {
            Unmanaged.passUnretained(keyPath).toOpaque()
                .load(fromByteOffset: headerOffset, as: UInt32.self)
        }
    }
}

/// Two keypaths of known shape, for `KeyPathShape`.
struct ShapeProbe {
    var component: Int { 0 }
}

extension Injections {
    var shapeProbe: ShapeProbe { ShapeProbe() }
}
