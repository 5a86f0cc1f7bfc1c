// A stand-in for Apple's Darwin module, so that CI type-checks on Linux the library's calls into
// the C library it imports as Darwin under `#if canImport(Darwin)` (see run.sh). Never shipped.
// It declares only the C functions the library calls, as Swift imports them from the macOS and
// iOS SDK headers (`<pthread.h>` is annotated for nullability and availability; `<string.h>` is
// not, hence the `!`s). Swift imports C functions as `@discardableResult`, and keeps their C names.
// swift-format-ignore-file: AlwaysUseLowerCamelCase, TypeNamesShouldBeCapitalized

/// `pthread_key_t`: `__darwin_pthread_key_t`, an `unsigned long`.
public typealias pthread_key_t = UInt

/// `int pthread_key_create(pthread_key_t *, void (* _Nullable)(void *));`, macOS 10.4, iOS 2.0.
///
/// On Darwin the destructor receives a non-optional pointer; on Linux (Glibc) an optional one.
///
/// - Parameters:
///   - key: Where the new key is stored.
///   - destructor: Called with a thread's non-`nil` value when the thread exits.
/// - Returns: 0, or an error number.
@available(macOS 10.4, iOS 2.0, *)
@discardableResult
public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>,
    _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 {
    fatalError("stub")
}

/// `void * _Nullable pthread_getspecific(pthread_key_t);`, macOS 10.4, iOS 2.0; unavailable
/// from asynchronous code in current SDKs.
///
/// - Parameter key: The key.
/// - Returns: The calling thread's value for `key`, or `nil`.
@available(*, noasync, message: "Use Task Local Values instead")
@available(macOS 10.4, iOS 2.0, *)
@discardableResult
public func pthread_getspecific(_ key: pthread_key_t) -> UnsafeMutableRawPointer? {
    fatalError("stub")
}

/// `int pthread_setspecific(pthread_key_t, const void * _Nullable);`, macOS 10.4, iOS 2.0;
/// unavailable from asynchronous code in current SDKs.
///
/// - Parameters:
///   - key: The key.
///   - value: The calling thread's new value for `key`.
/// - Returns: 0, or an error number.
@available(*, noasync, message: "Use Task Local Values instead")
@available(macOS 10.4, iOS 2.0, *)
@discardableResult
public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 {
    fatalError("stub")
}

/// `int memcmp(const void *, const void *, size_t);`
///
/// - Parameters:
///   - lhs: The first buffer.
///   - rhs: The second buffer.
///   - count: How many bytes to compare.
/// - Returns: Zero when the bytes are equal.
@discardableResult
public func memcmp(_ lhs: UnsafeRawPointer!, _ rhs: UnsafeRawPointer!, _ count: Int) -> Int32 {
    fatalError("stub")
}

/// `void *memchr(const void *, int, size_t);`
///
/// - Parameters:
///   - buffer: The buffer to search.
///   - byte: The byte to find, as an `int`.
///   - count: How many bytes to search.
/// - Returns: The first occurrence of `byte`, or `nil`.
@discardableResult
public func memchr(_ buffer: UnsafeRawPointer!, _ byte: Int32, _ count: Int)
    -> UnsafeMutableRawPointer!
{
    fatalError("stub")
}
