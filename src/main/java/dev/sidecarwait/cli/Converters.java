package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.process.StopSignal;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters; the same parsers serve the environment variables, so both give the same messages. */
final class Converters {

    private Converters() {
    }

    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parsed(value, Durations::parse);
        }
    }

    static final class PositiveDurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parsed(value, Durations::parsePositive);
        }
    }

    static final class TargetConverter implements ITypeConverter<Target> {
        @Override
        public Target convert(String value) {
            return target(value, Target::parse);
        }
    }

    /** pilot-agent's numeric spellings (--timeoutSeconds, ...): a number too large says so, and what the largest is. */
    static final class WholeNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String digits = value.trim();
            if (!digits.matches("-?\\d+")) {
                throw new TypeConversionException("'" + value + "' is not a whole number");
            }
            try {
                return Integer.parseInt(digits);
            } catch (NumberFormatException tooLarge) {
                throw new TypeConversionException("'" + value + "' is too large: the largest accepted is " + Integer.MAX_VALUE);
            }
        }
    }

    /** A boolean as Go's strconv.ParseBool reads one (pilot-agent's --log_as_json): 1, t, true, 0, f, false, in three cases. */
    static final class GoBoolean implements ITypeConverter<Boolean> {
        @Override
        public Boolean convert(String value) {
            return switch (value.trim()) {
                case "1", "t", "T", "true", "TRUE", "True" -> true;
                case "0", "f", "F", "false", "FALSE", "False" -> false;
                default -> throw new TypeConversionException("'" + value + "' is not true or false");
            };
        }
    }

    static final class StopSignalConverter implements ITypeConverter<StopSignal> {
        @Override
        public StopSignal convert(String value) {
            return parsed(value, StopSignal::parse);
        }
    }

    static final class PortNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String digits = value.trim();
            if (digits.matches("\\d{1,5}")) {
                int port = Integer.parseInt(digits);
                if (port >= 1 && port <= 65535) {
                    return port;
                }
            }
            throw new TypeConversionException("'" + value + "' is not a port from 1 to 65535");
        }
    }

    /** For settings that take only http:// URLs (a quit URL): a missing or unknown scheme is answered with that alone. */
    static final class HttpSettingConverter implements ITypeConverter<Target> {
        @Override
        public Target convert(String value) {
            return target(value, Target::parseHttpSetting);
        }
    }

    /** A refused URL is named with its user information taken out, whichever setting it was given to. */
    private static Target target(String value, Function<String, Target> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + Target.redacted(value) + "': " + e.getMessage());
        }
    }

    // One class per word-valued setting, as picocli instantiates converters by class; each reads its values when it
    // converts: an array of them held in a field would put run-time-initialized enums (Log.Format) in the image heap.
    static final class MeshChoice implements ITypeConverter<MeshOption.Choice> {
        @Override
        public MeshOption.Choice convert(String value) {
            return choice(MeshOption.Choice.values(), value);
        }
    }

    static final class OnTimeoutChoice implements ITypeConverter<WaitCommand.OnTimeout> {
        @Override
        public WaitCommand.OnTimeout convert(String value) {
            return choice(WaitCommand.OnTimeout.values(), value);
        }
    }

    static final class LogFormatChoice implements ITypeConverter<Log.Format> {
        @Override
        public Log.Format convert(String value) {
            return choice(Log.Format.values(), value);
        }
    }

    static final class OutputChoice implements ITypeConverter<CheckCommand.Output> {
        @Override
        public CheckCommand.Output convert(String value) {
            return choice(CheckCommand.Output.values(), value);
        }
    }

    static final class SourceChoice implements ITypeConverter<DrainCommand.Source> {
        @Override
        public DrainCommand.Source convert(String value) {
            return choice(DrainCommand.Source.values(), value);
        }
    }

    /** {@code parser}'s answer; its IllegalArgumentException, whose message says what is wrong, as picocli's. */
    private static <T> T parsed(String value, Function<String, T> parser) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    private static <E extends Enum<E>> E choice(E[] choices, String value) {
        try {
            return Choices.parse(choices, value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    static final class StatusConverter implements ITypeConverter<ExpectedStatus> {
        @Override
        public ExpectedStatus convert(String value) {
            return parsed(value, ExpectedStatus::parse);
        }
    }
}
