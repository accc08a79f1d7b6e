export const MOCK_PAGE_HTML = '<!doctype html><title>plantstore</title>';
