package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Empty: UpdateStatus only reports. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UpdateStatusSpec {
    @Override
    public boolean equals(Object o) {
        return o instanceof UpdateStatusSpec;
    }

    @Override
    public int hashCode() {
        return 1;
    }
}
