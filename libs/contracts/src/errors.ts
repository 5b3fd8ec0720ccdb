/** The body of every 4xx/5xx the API sends. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}
