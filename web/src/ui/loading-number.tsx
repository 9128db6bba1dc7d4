// A count that may still be loading: a placeholder of the given size until it comes, then the number.
import { formatNumber } from "../lib/format.ts";
import { Skeleton } from "./status.tsx";

interface LoadingNumberProps {
  value: number | undefined;
  testId: string;
  /** The placeholder's size while loading. */
  width: string;
  height: string;
}

export function LoadingNumber({ value, testId, width, height }: LoadingNumberProps) {
  return value === undefined ? <Skeleton width={width} height={height} /> : <span data-testid={testId}>{formatNumber(value)}</span>;
}
