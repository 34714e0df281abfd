package dev.sidecarwait.cli;

import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters; the same parsers serve the environment variables, so both give the same messages. */
final class Converters {

    private Converters() {
    }

    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class PositiveDurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parsePositive(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class TargetConverter implements ITypeConverter<Target> {
        @Override
        public Target convert(String value) {
            try {
                return Target.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + Target.redacted(value) + "': " + e.getMessage());
            }
        }
    }

    static final class StatusConverter implements ITypeConverter<ExpectedStatus> {
        @Override
        public ExpectedStatus convert(String value) {
            try {
                return ExpectedStatus.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
